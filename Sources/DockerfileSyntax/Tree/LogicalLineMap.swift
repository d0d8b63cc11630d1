import Serialization

/// Where each part of an instruction's logical line comes from in the file.
///
/// BuildKit joins an instruction's physical lines into one logical line: the first line
/// without its leading white space, then each continuation line as written, each without the
/// escape character that continues it; comment and blank lines inside are dropped (Dockerfile
/// reference, "Parser directives" and "Format"). The parser records the runs it joined, so
/// every offset in the logical line maps back to a line and column.
public struct LogicalLineMap: Sendable, Hashable {
    /// A run of the logical line that comes from one physical line.
    public struct Segment: Sendable, Hashable {
        /// Where the run starts in the logical line, in Unicode scalars.
        public var logicalStart: Int
        /// The 1-based physical line.
        public var line: Int
        /// The 1-based column where the run starts on that line, in Unicode scalars.
        public var column: Int

        /// Creates a segment.
        ///
        /// - Parameters:
        ///   - logicalStart: The 0-based start in the logical line.
        ///   - line: The 1-based line.
        ///   - column: The 1-based column.
        public init(logicalStart: Int, line: Int, column: Int) {
            self.logicalStart = logicalStart
            self.line = line
            self.column = column
        }
    }

    /// The runs in order; never empty for a parsed instruction.
    public var segments: [Segment]
    /// How many physical lines the logical line spans, comment and blank lines inside it
    /// included; heredoc bodies start on the line after.
    public var lineCount: Int

    /// Creates a map.
    ///
    /// - Parameters:
    ///   - segments: The runs in order.
    ///   - lineCount: The physical lines spanned.
    public init(segments: [Segment], lineCount: Int) {
        self.segments = segments
        self.lineCount = lineCount
    }

    /// The map of the part of the logical line from `offset` on, as a line of its own (an
    /// `ONBUILD` trigger's line is the rest of its `ONBUILD` line).
    ///
    /// - Parameter offset: 0-based, in Unicode scalars.
    /// - Returns: The map whose offset 0 is `offset` here.
    public func dropping(first offset: Int) -> LogicalLineMap {
        var kept: [Segment] = []
        for (index, segment) in segments.enumerated() {
            let next = index + 1 < segments.count ? segments[index + 1].logicalStart : Int.max
            if next <= offset { continue }
            if segment.logicalStart <= offset {
                kept.append(Segment(logicalStart: 0, line: segment.line, column: segment.column + offset - segment.logicalStart))
            } else {
                kept.append(Segment(logicalStart: segment.logicalStart - offset, line: segment.line, column: segment.column))
            }
        }
        return LogicalLineMap(segments: kept, lineCount: lineCount)
    }

    /// The position of an offset in the logical line.
    ///
    /// - Parameter offset: 0-based, in Unicode scalars; offsets past a run's end stay on its line.
    /// - Returns: The 1-based line and column; line 0 column 1 for an empty map.
    public func location(ofOffset offset: Int) -> SourceLocation {
        guard !segments.isEmpty else { return SourceLocation(line: 0, column: 1) }
        let low = segments.partitioningIndex { $0.logicalStart > offset }
        let segment = segments[max(0, low - 1)]
        return SourceLocation(line: segment.line, column: segment.column + max(0, offset - segment.logicalStart))
    }
}
