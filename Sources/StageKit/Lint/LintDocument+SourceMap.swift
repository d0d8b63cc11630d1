import DockerfileSyntax

extension LintDocument {
    /// Maps positions in an instruction's logical line (continuations joined, comment lines
    /// inside it dropped, as BuildKit joins them) and in its heredoc bodies back to lines and
    /// columns of the file.
    struct SourceMap: Sendable {
        /// A run of the logical line that comes from one physical line.
        struct Segment: Sendable {
            /// Where the run starts in the logical line, in Unicode scalars.
            var logicalStart: Int
            /// The physical line.
            var line: Int
            /// The 1-based column where the run starts on that line.
            var column: Int
        }

        /// The runs in order.
        var segments: [Segment]
        /// The first line of the instruction.
        var startLine: Int
        /// How many physical lines the logical line spans, comment lines inside it included;
        /// heredoc bodies start on the line after.
        var lineCount: Int

        /// Replays BuildKit's line joining over an instruction's source text.
        ///
        /// - Parameters:
        ///   - text: The instruction's source text, continuation lines and heredoc bodies included.
        ///   - startLine: Its first line.
        ///   - escape: The file's escape character.
        init(text: String, startLine: Int, escape: Unicode.Scalar) {
            self.startLine = startLine
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                Array(line.reversed().drop(while: { $0 == "\r" }).reversed())
            }
            func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
            func piece(_ line: ArraySlice<Unicode.Scalar>) -> (length: Int, ends: Bool) {
                var end = line.endIndex
                while end > line.startIndex, line[end - 1] == " " || line[end - 1] == "\t" { end -= 1 }
                guard end > line.startIndex, line[end - 1] == escape else { return (line.count, true) }
                let escapeIndex = end - 1
                if escapeIndex > line.startIndex && line[escapeIndex - 1] == escape { return (line.count, true) }
                return (escapeIndex - line.startIndex, false)
            }
            var segments: [Segment] = []
            let first = lines.first ?? []
            let lead = first.prefix(while: isSpace).count
            var (length, ends) = piece(first[lead...])
            segments.append(Segment(logicalStart: 0, line: startLine, column: lead + 1))
            var logical = length
            var index = 1
            while !ends, index < lines.count {
                let line = lines[index]
                index += 1
                let trimmed = line.drop(while: isSpace)
                if trimmed.isEmpty || trimmed.first == "#" { continue }
                segments.append(Segment(logicalStart: logical, line: startLine + index - 1, column: 1))
                (length, ends) = piece(line[...])
                logical += length
            }
            self.segments = segments
            self.lineCount = index
        }

        /// The position of an offset in the logical line.
        ///
        /// - Parameter offset: 0-based, in Unicode scalars.
        func location(ofLogicalOffset offset: Int) -> SourceLocation {
            let segment = segments.last { $0.logicalStart <= offset } ?? segments[0]
            return SourceLocation(line: segment.line, column: segment.column + max(0, offset - segment.logicalStart))
        }

        /// Where the body of one of the instruction's heredocs starts.
        ///
        /// - Parameters:
        ///   - index: The heredoc's position among the instruction's heredocs.
        ///   - heredocs: The instruction's heredocs.
        /// - Returns: The 1-based line of the body's first line.
        func bodyStartLine(ofHeredoc index: Int, in heredocs: [Heredoc]) -> Int {
            var line = startLine + lineCount
            for earlier in heredocs.prefix(index) {
                line += earlier.content.unicodeScalars.filter { $0 == "\n" }.count + 1
            }
            return line
        }

        /// The positions of offsets in one heredoc body.
        ///
        /// - Parameters:
        ///   - index: The heredoc's position among the instruction's heredocs.
        ///   - heredocs: The instruction's heredocs.
        /// - Returns: A function from a 0-based offset in the body, in Unicode scalars, to the position.
        func heredocLocator(_ index: Int, in heredocs: [Heredoc]) -> @Sendable (Int) -> SourceLocation {
            let firstLine = bodyStartLine(ofHeredoc: index, in: heredocs)
            var starts = [0]
            for (offset, scalar) in heredocs[index].content.unicodeScalars.enumerated() where scalar == "\n" {
                starts.append(offset + 1)
            }
            let lineStarts = starts
            return { offset in
                let line = (lineStarts.lastIndex { $0 <= offset } ?? 0)
                return SourceLocation(line: firstLine + line, column: offset - lineStarts[line] + 1)
            }
        }
    }
}
