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

    /// Creates a heredoc.
    ///
    /// - Parameters:
    ///   - name: The delimiter with quotes removed.
    ///   - fileDescriptor: The descriptor written before `<<`, or 0.
    ///   - expandsVariables: Whether the delimiter was unquoted.
    ///   - stripsLeadingTabs: Whether it was written `<<-`.
    ///   - content: The body lines with their endings.
    public init(
        name: String, fileDescriptor: Int = 0, expandsVariables: Bool = true, stripsLeadingTabs: Bool = false,
        content: String = ""
    ) {
        self.name = name
        self.fileDescriptor = fileDescriptor
        self.expandsVariables = expandsVariables
        self.stripsLeadingTabs = stripsLeadingTabs
        self.content = content
    }
}
