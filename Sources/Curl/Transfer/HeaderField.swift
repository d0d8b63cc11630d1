/// One response header field, `name: value`, as the server sent it (RFC 9110 section 5).
public struct HeaderField: Sendable, Equatable, CustomStringConvertible {
    /// The field name, in the server's spelling, e.g. `"Content-Type"`.
    public var name: String
    /// The field value without leading or trailing white space; folded lines are joined with a space.
    public var value: String

    /// A field.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `"Name: value"`.
    public var description: String { "\(name): \(value)" }
}
