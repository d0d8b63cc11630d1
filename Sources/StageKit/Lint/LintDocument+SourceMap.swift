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
            let segment = segments[max(0, Self.lastIndex(in: segments.lazy.map(\.logicalStart), notAbove: offset))]
            return SourceLocation(line: segment.line, column: segment.column + max(0, offset - segment.logicalStart))
        }

        /// The index of the last of ascending values that is at most `value`, found by binary
        /// search; -1 when even the first is larger.
        ///
        /// - Parameters:
        ///   - values: Values in ascending order.
        ///   - value: The value to place.
        static func lastIndex<Values: RandomAccessCollection>(in values: Values, notAbove value: Int) -> Int
        where Values.Element == Int, Values.Index == Int {
            var low = values.startIndex
            var high = values.endIndex
            while low < high {
                let middle = (low + high) / 2
                if values[middle] <= value { low = middle + 1 } else { high = middle }
            }
            return low - 1
        }

        /// Where the body of each of the instruction's heredocs starts, in one pass.
        ///
        /// - Parameter heredocs: The instruction's heredocs.
        /// - Returns: The 1-based line of each body's first line.
        func bodyStartLines(of heredocs: [Heredoc]) -> [Int] {
            var line = startLine + lineCount
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
                let line = max(0, Self.lastIndex(in: lineStarts, notAbove: offset))
                return SourceLocation(line: firstLine + line, column: offset - lineStarts[line] + 1)
            }
        }
    }
}
