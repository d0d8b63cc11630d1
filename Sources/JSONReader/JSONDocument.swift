import CJansson
import Serialization

/// Reads JSON text (RFC 8259) with Jansson, strictly: a text that two readers could take
/// differently is refused rather than read one way.
///
/// Jansson 2.14 (Debian's libjansson-dev) decodes with `JSON_REJECT_DUPLICATES`, so an object
/// that names a member twice is an error (RFC 8259 section 4 leaves such objects to the reader:
/// Foundation keeps the first, jq, Python and Go keep the last). It also refuses what RFC 7493
/// (I-JSON) rules out: invalid UTF-8, a lone surrogate escape (`"\uD800"`), `\u0000` in a
/// string, an integer beyond 64 bits and a number beyond a double's range; and text after the
/// value. Members keep the order they are written in.
public enum JSONDocument {
    /// The longest text read: 64 MiB, far above any lockfile, manifest or config file.
    public static let maximumInputBytes = 64 << 20

    /// Reads one JSON value.
    ///
    /// - Parameter bytes: The text as UTF-8 (no byte order mark: RFC 8259 section 8.1).
    /// - Returns: The value, objects as ``Serialization/JSONValue/object(_:)`` in written order,
    ///   integers as `.integer`, other numbers as `.number`.
    /// - Throws: ``JSONSyntaxError`` at the first problem, with Jansson's message and its
    ///   line and column (columns count Unicode scalars from 1).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        guard bytes.count <= maximumInputBytes else {
            throw JSONSyntaxError(
                message: "the text is \(bytes.count) bytes; at most \(maximumInputBytes) (64 MiB) are read", line: 1, column: 1)
        }
        var error = json_error_t()
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY)
        let root = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { json_loadb($0, buffer.count, flags, &error) }
            } ?? json_loadb("", 0, flags, &error)
        }
        guard let root else {
            let message = withUnsafeBytes(of: error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw JSONSyntaxError(message: message, line: max(Int(error.line), 1), column: max(Int(error.column), 1))
        }
        defer { stagebuild_json_release(root) }
        return value(of: root)
    }

    /// Reads one JSON value from text.
    ///
    /// - Parameter text: The text.
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` as ``parse(_:)-(Array<UInt8>)``.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The Swift value of a Jansson value, recursively (Jansson limits nesting to 2048 levels).
    private static func value(of node: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch stagebuild_json_type(node) {
        case JSON_OBJECT:
            var members: [(String, JSONValue)] = []
            var iterator = json_object_iter(node)
            while let current = iterator {
                let length = json_object_iter_key_len(current)
                let key = json_object_iter_key(current).map { pointer in
                    pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    }
                }
                if let key, let child = json_object_iter_value(current) { members.append((key, value(of: child))) }
                iterator = json_object_iter_next(node, current)
            }
            return .object(members)
        case JSON_ARRAY:
            return .array((0..<json_array_size(node)).compactMap { json_array_get(node, $0).map(value(of:)) })
        case JSON_STRING:
            let length = json_string_length(node)
            guard let pointer = json_string_value(node) else { return .string("") }
            return .string(
                pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                })
        case JSON_INTEGER:
            return .integer(Int(json_integer_value(node)))
        case JSON_REAL:
            return .number(json_real_value(node))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }
}

/// JSON text that ``JSONDocument`` refuses, at the place Jansson stopped.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Jansson's message, e.g. `duplicate object key near '"images"'`.
    public var message: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN: message`.
    public var description: String { "\(line):\(column): \(message)" }

    /// The message without the text Jansson quotes after it (`near '…'`): for a file that may
    /// hold a secret, such as a registry auth file, whose line and column say where to look.
    public var messageWithoutText: String {
        let near = message.indices.first { message[$0...].hasPrefix(" near '") }
        return near.map { String(message[..<$0]) } ?? message
    }
}
