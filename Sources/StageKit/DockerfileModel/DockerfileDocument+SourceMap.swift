import DockerfileSyntax
import Serialization

extension DockerfileDocument {
    /// Maps positions in an instruction's logical line (through the parser's
    /// `LogicalLineMap`) and in its heredoc bodies back to lines and columns of the file.
    struct SourceMap: Sendable {
        /// The runs of the logical line, as the parser recorded them.
        var lines: LogicalLineMap
        /// The first line of the instruction.
        var startLine: Int

        /// The map of a parsed instruction.
        ///
        /// - Parameter instruction: An instruction from `DockerfileParser.parse(_:)`.
        init(_ instruction: Instruction) {
            lines = instruction.lineMap
            startLine = instruction.startLine
        }

        /// The position of an offset in the logical line.
        ///
        /// - Parameter offset: 0-based, in Unicode scalars.
        func location(ofLogicalOffset offset: Int) -> SourceLocation {
            lines.location(ofOffset: offset)
        }

        /// Where the body of each of the instruction's heredocs starts, in one pass.
        ///
        /// - Parameter heredocs: The instruction's heredocs.
        /// - Returns: The 1-based line of each body's first line.
        func bodyStartLines(of heredocs: [Heredoc]) -> [Int] {
            var line = startLine + lines.lineCount
            var starts: [Int] = []
            starts.reserveCapacity(heredocs.count)
            for heredoc in heredocs {
                starts.append(line)
                line += heredoc.content.unicodeScalars.lazy.filter { $0 == "\n" }.count + 1
            }
            return starts
        }

        /// The positions of offsets in one heredoc body.
        ///
        /// - Parameters:
        ///   - heredoc: The heredoc.
        ///   - firstLine: The line its body starts on (see `bodyStartLines(of:)`).
        /// - Returns: A function from a 0-based offset in the body, in Unicode scalars, to the position.
        func heredocLocator(_ heredoc: Heredoc, firstLine: Int) -> @Sendable (Int) -> SourceLocation {
            var starts = [0]
            for (offset, scalar) in heredoc.content.unicodeScalars.enumerated() where scalar == "\n" {
                starts.append(offset + 1)
            }
            let lineStarts = starts
            return { offset in
                let line = max(0, lineStarts.partitioningIndex { $0 > offset } - 1)
                return SourceLocation(line: firstLine + line, column: offset - lineStarts[line] + 1)
            }
        }
    }
}
