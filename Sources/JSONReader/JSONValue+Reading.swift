import Serialization

extension JSONValue {
    /// The value of an object's member; `nil` for a value that is no object or has no such member.
    ///
    /// - Parameter name: The member name, compared byte for byte.
    public subscript(member name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// An object's members in written order; `nil` for any other value.
    public var members: [(String, JSONValue)]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// An array's elements; `nil` for any other value.
    public var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// A string's text; `nil` for any other value.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// An integer's value; `nil` for any other value (a number with a fraction or exponent
    /// included: `3.0` is not read as `3`).
    public var integerValue: Int? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    /// The JSON type's name as RFC 8259 names it: `object`, `array`, `string`, `number`,
    /// `true`, `false` or `null`, for messages.
    public var typeName: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .integer, .number: "number"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }
}
