/// A Dockerfile that BuildKit's parser would reject, or that stagebuild cannot read.
///
/// The message says what is wrong in the words BuildKit uses where BuildKit has words for it
/// (for example `unterminated heredoc`), and the location points at the offending text.
public struct DockerfileSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one sentence without a trailing period.
    public var message: String
    /// Where the fault starts.
    public var location: SourceLocation

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - location: Where the fault starts.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}
