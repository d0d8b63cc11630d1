import Serialization

/// A here-document attached to a `RUN`, `COPY` or `ADD` instruction (Dockerfile reference,
/// "Here-Documents"), e.g. `RUN <<EOF` followed by body lines and a line `EOF`.
public struct Heredoc: Sendable, Hashable {
    /// The delimiter word with quotes removed, e.g. `EOF` for `<<"EOF"`.
    public var name: String
    /// The file descriptor before `<<`, e.g. 3 for `3<<EOF`; 0 when none is written.
    public var fileDescriptor: Int
    /// False when any part of the delimiter was quoted: the body is then taken literally.
    public var expandsVariables: Bool
    /// True for `<<-`: leading tabs are stripped from body lines and from the delimiter line.
    public var stripsLeadingTabs: Bool
    /// The body as written, every line with its line ending, tabs not yet stripped.
    public var content: String
    /// How many lines after its instruction's first line the body starts, as the parser read
    /// the file's lines: the body's first line is the instruction's `startLine` plus this.
    public var bodyLineOffset: Int

    /// Creates a heredoc.
    ///
    /// - Parameters:
    ///   - name: The delimiter with quotes removed.
    ///   - fileDescriptor: The descriptor written before `<<`, or 0.
    ///   - expandsVariables: Whether the delimiter was unquoted.
    ///   - stripsLeadingTabs: Whether it was written `<<-`.
    ///   - content: The body lines with their endings.
    ///   - bodyLineOffset: How many lines after the instruction's first line the body starts.
    public init(
        name: String, fileDescriptor: Int = 0, expandsVariables: Bool = true, stripsLeadingTabs: Bool = false,
        content: String = "", bodyLineOffset: Int = 0
    ) {
        self.name = name
        self.fileDescriptor = fileDescriptor
        self.expandsVariables = expandsVariables
        self.stripsLeadingTabs = stripsLeadingTabs
        self.content = content
        self.bodyLineOffset = bodyLineOffset
    }

    /// Where offsets in the body are in the file, for an instruction that starts on
    /// `instructionStartLine`: the body's line starts are found once, then each offset by
    /// binary search.
    ///
    /// - Parameter instructionStartLine: The 1-based first line of the heredoc's instruction.
    /// - Returns: A function from a 0-based offset in ``content``, in Unicode scalars, to its line
    ///   and column.
    public func locator(instructionStartLine: Int) -> @Sendable (Int) -> SourceLocation {
        var starts = [0]
        for (offset, scalar) in content.unicodeScalars.enumerated() where scalar == "\n" {
            starts.append(offset + 1)
        }
        let lineStarts = starts
        let firstLine = instructionStartLine + bodyLineOffset
        return { offset in
            let line = max(0, lineStarts.partitioningIndex { $0 > offset } - 1)
            return SourceLocation(line: firstLine + line, column: offset - lineStarts[line] + 1)
        }
    }
}
