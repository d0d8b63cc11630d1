/// A JSON document with keys in a fixed order, written the same way every time (for reports
/// and golden files; Foundation's `JSONEncoder` orders keys by hash or alphabetically).
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null

    static func == (left: JSONValue, right: JSONValue) -> Bool { left.text(indent: 0) == right.text(indent: 0) }

    /// `.string` for a value, `.null` for `nil`.
    static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// `.integer` for a value, `.null` for `nil`.
    static func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }

    /// `.bool` for a value, `.null` for `nil`.
    static func bool(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    /// A number rounded to three decimals (microseconds for millisecond values), `.null` for `nil`.
    static func milliseconds(_ value: Double?) -> JSONValue {
        guard let value else { return .null }
        return .number((value * 1000).rounded() / 1000)
    }

    /// The document, two spaces per level, `": "` after keys, no trailing newline.
    func text(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else { return "{}" }
            let lines = pairs.map { "\(inner)\(Self.quoted($0.0)): \($0.1.text(indent: indent + 1))" }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(pad)}"
        case .array(let values):
            guard !values.isEmpty else { return "[]" }
            let lines = values.map { inner + $0.text(indent: indent + 1) }
            return "[\n" + lines.joined(separator: ",\n") + "\n\(pad)]"
        case .string(let value): return Self.quoted(value)
        case .integer(let value): return String(value)
        case .number(let value):
            if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// A JSON string (RFC 8259 section 7): `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
