/// One field line of a request, as it arrived: the name keeps its case and duplicates stay apart.
public struct HTTPField: Sendable, Hashable {
    /// The field name exactly as sent, e.g. `"X-Forwarded-For"`.
    public var name: String
    /// The field value without leading and trailing whitespace (RFC 9112 section 5.1). Bytes that
    /// are not UTF-8 (obs-text, RFC 9110 section 5.5) are read as ISO-8859-1.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The name as sent.
    ///   - value: The value without surrounding whitespace.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
