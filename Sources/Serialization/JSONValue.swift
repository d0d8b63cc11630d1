/// A JSON document (RFC 8259) with keys in the order given, written the same way every time and
/// on every platform (for reports, lint output and golden files; Foundation's `JSONEncoder`
/// orders keys by hash or alphabetically, and spaces them differently across platforms).
public enum JSONValue: Sendable, Equatable {
    /// An object's members in order (a key given twice is written twice).
    case object([(String, JSONValue)])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A number; written without a fraction when it is whole and below 10^15.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Equal when written the same.
    public static func == (left: JSONValue, right: JSONValue) -> Bool { left.text(indent: 0) == right.text(indent: 0) }

    /// `.string` for a value, `.null` for `nil`.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// `.integer` for a value, `.null` for `nil`.
    public static func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }

    /// `.bool` for a value, `.null` for `nil`.
    public static func bool(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    /// A number rounded to three decimals (microseconds for millisecond values), `.null` for `nil`.
    public static func milliseconds(_ value: Double?) -> JSONValue {
        guard let value else { return .null }
        return .number((value * 1000).rounded() / 1000)
    }

    /// How a document is laid out; every layout writes the same values, and strings the same way.
    public enum Layout: Sendable {
        /// Two spaces per level, `": "` after keys (reports, lint output, the lockfile).
        case indented
        /// As `indented`, but an object of at most three members that are all scalars stays on
        /// one line, `{"name": "Host", "value": "example.com"}` (serve's echo documents).
        case indentedInliningSmallObjects
        /// No white space at all: one line (JSON access-log lines).
        case compact
    }

    /// An object with its members sorted by key, byte by byte (as Go and `jq -S` sort).
    ///
    /// - Parameter members: The members in any order.
    public static func sortedObject(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
    }

    /// The document as text, without a trailing newline.
    ///
    /// - Parameters:
    ///   - indent: The level the document starts at (for a document inside another's text).
    ///   - layout: How it is laid out.
    public func text(indent: Int = 0, layout: Layout = .indented) -> String {
        var output: [UInt8] = []
        write(to: &output, indent: indent, layout: layout)
        return String(decoding: output, as: UTF8.self)
    }

    /// A JSON string (RFC 8259 section 7): `"`, `\` and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        appendQuoted(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the document's UTF-8 to `output`: one byte buffer for a whole report, which
    /// runs to a million calls.
    ///
    /// - Parameters:
    ///   - output: The buffer.
    ///   - indent: The level the document starts at.
    ///   - layout: How it is laid out.
    public func write(to output: inout [UInt8], indent: Int, layout: Layout = .indented) {
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else {
                output += "{}".utf8
                return
            }
            if layout == .compact
                || (layout == .indentedInliningSmallObjects && pairs.count <= 3 && pairs.allSatisfy(\.1.isScalar))
            {
                output.append(UInt8(ascii: "{"))
                for (index, (key, value)) in pairs.enumerated() {
                    if index > 0 { output += (layout == .compact ? "," : ", ").utf8 }
                    Self.appendQuoted(key, to: &output)
                    output += (layout == .compact ? ":" : ": ").utf8
                    value.write(to: &output, indent: indent, layout: layout)
                }
                output.append(UInt8(ascii: "}"))
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\n"))
                Self.appendIndent(indent + 1, to: &output)
                Self.appendQuoted(key, to: &output)
                output += ": ".utf8
                value.write(to: &output, indent: indent + 1, layout: layout)
            }
            output.append(UInt8(ascii: "\n"))
            Self.appendIndent(indent, to: &output)
            output.append(UInt8(ascii: "}"))
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]".utf8
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if layout != .compact {
                    output.append(UInt8(ascii: "\n"))
                    Self.appendIndent(indent + 1, to: &output)
                }
                value.write(to: &output, indent: indent + 1, layout: layout)
            }
            if layout != .compact {
                output.append(UInt8(ascii: "\n"))
                Self.appendIndent(indent, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let value): Self.appendQuoted(value, to: &output)
        case .integer(let value): output += String(value).utf8
        case .number(let value):
            output += (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .null: output += "null".utf8
        }
    }

    /// Whether the value is a string, number, boolean or null.
    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        case .string, .integer, .number, .bool, .null: true
        }
    }

    /// Appends a literal's UTF-8 in one copy (a `String`'s UTF-8 view is appended byte by byte).
    ///
    /// - Parameters:
    ///   - literal: Text written in the source.
    ///   - output: The buffer.
    @inlinable public static func appendLiteral(_ literal: StaticString, to output: inout [UInt8]) {
        literal.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static func appendIndent(_ level: Int, to output: inout [UInt8]) {
        for _ in 0..<level { output += "  ".utf8 }
    }

    /// Appends a JSON string's UTF-8: `"`, `\\` and control characters escaped.
    ///
    /// - Parameters:
    ///   - text: The string.
    ///   - output: The buffer.
    @inlinable public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (URLs, names) need no escape: copied in one piece.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += "\\\"".utf8
            case UInt8(ascii: "\\"): output += "\\\\".utf8
            case UInt8(ascii: "\n"): output += "\\n".utf8
            case UInt8(ascii: "\r"): output += "\\r".utf8
            case UInt8(ascii: "\t"): output += "\\t".utf8
            case _ where byte < 0x20 || byte == 0x7F:
                let hex = String(byte, radix: 16)
                output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
