/// A JSON value whose objects keep their member order, rendered by hand so output is stable
/// and needs no Foundation (RFC 8259).
enum JSONValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([Member])

    /// One object member; a struct so that order and duplicates are kept.
    struct Member: Sendable, Equatable {
        var name: String
        var value: JSONValue
        init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The value as indented JSON with a trailing newline; an object of at most three scalar
    /// members stays on one line, e.g. `{"name": "Host", "value": "example.com"}`.
    func rendered() -> String {
        String(decoding: renderedBytes(), as: UTF8.self)
    }

    /// ``rendered()`` as UTF-8 bytes, ready to send.
    func renderedBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        render(into: &output, indent: 0)
        output.append(ASCII.lineFeed)
        return output
    }

    private func render(into output: inout [UInt8], indent: Int) {
        switch self {
        case .string(let text): Self.quote(text, into: &output)
        case .integer(let number): output.append(contentsOf: String(number).utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(contentsOf: "[\n".utf8)
            for (position, element) in elements.enumerated() {
                Self.indent(indent + 2, into: &output)
                element.render(into: &output, indent: indent + 2)
                output.append(contentsOf: (position == elements.count - 1 ? "\n" : ",\n").utf8)
            }
            Self.indent(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            if members.count <= 3 && members.allSatisfy(\.value.isScalar) {
                output.append(UInt8(ascii: "{"))
                for (position, member) in members.enumerated() {
                    Self.quote(member.name, into: &output)
                    output.append(contentsOf: ": ".utf8)
                    member.value.render(into: &output, indent: indent)
                    if position < members.count - 1 { output.append(contentsOf: ", ".utf8) }
                }
                output.append(UInt8(ascii: "}"))
                return
            }
            output.append(contentsOf: "{\n".utf8)
            for (position, member) in members.enumerated() {
                Self.indent(indent + 2, into: &output)
                Self.quote(member.name, into: &output)
                output.append(contentsOf: ": ".utf8)
                member.value.render(into: &output, indent: indent + 2)
                output.append(contentsOf: (position == members.count - 1 ? "\n" : ",\n").utf8)
            }
            Self.indent(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func indent(_ count: Int, into output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(ASCII.space, count: count))
    }

    /// Whether the value is a string, number, boolean or null.
    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        case .string, .integer, .bool, .null: return true
        }
    }

    /// Writes a JSON string (RFC 8259 section 7): quote, backslash and control characters escaped,
    /// everything else as its UTF-8 bytes.
    private static func quote(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let bytes = text.utf8
        if !bytes.contains(where: needsEscape) {
            output.append(contentsOf: bytes)
        } else {
            let hex = Array("0123456789abcdef".utf8)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
                case ASCII.lineFeed: output.append(contentsOf: "\\n".utf8)
                case ASCII.carriageReturn: output.append(contentsOf: "\\r".utf8)
                case ASCII.tab: output.append(contentsOf: "\\t".utf8)
                case _ where needsEscape(byte):
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0x0F)])
                default: output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }
}
