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
        var output = ""
        write(to: &output, indent: indent)
        return output
    }

    /// A JSON string (RFC 8259 section 7): `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var output = ""
        appendQuoted(text, to: &output)
        return output
    }

    /// Appends the document to `output`: one buffer for a whole report, which runs to
    /// thousands of calls.
    private func write(to output: inout String, indent: Int) {
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, (key, value)) in pairs.enumerated() {
                output += index == 0 ? "\n" : ",\n"
                Self.appendIndent(indent + 1, to: &output)
                Self.appendQuoted(key, to: &output)
                output += ": "
                value.write(to: &output, indent: indent + 1)
            }
            output += "\n"
            Self.appendIndent(indent, to: &output)
            output += "}"
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                output += index == 0 ? "\n" : ",\n"
                Self.appendIndent(indent + 1, to: &output)
                value.write(to: &output, indent: indent + 1)
            }
            output += "\n"
            Self.appendIndent(indent, to: &output)
            output += "]"
        case .string(let value): Self.appendQuoted(value, to: &output)
        case .integer(let value): output += String(value)
        case .number(let value):
            output += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }

    private static func appendIndent(_ level: Int, to output: inout String) {
        for _ in 0..<level { output += "  " }
    }

    private static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        // Most values need no escape: they are copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F }) {
            output += text + "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
