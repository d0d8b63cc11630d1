/// Turns the bytes of a file to lint into text: UTF-8, as BuildKit reads Dockerfiles. Bytes
/// that are not UTF-8 are bad input data, reported with the position of the first bad byte.
public enum LintSourceText {
    /// Bytes that are not UTF-8 text, and where the first bad byte is.
    public struct InvalidUTF8: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 0-based offset of the first byte of the first ill-formed sequence.
        public var byteOffset: Int
        /// That byte.
        public var byte: UInt8
        /// The 1-based line it is on.
        public var line: Int
        /// The 1-based column, in Unicode scalars, as lint findings count columns.
        public var column: Int

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - byteOffset: The 0-based offset of the first bad byte.
        ///   - byte: That byte.
        ///   - line: Its 1-based line.
        ///   - column: Its 1-based column in Unicode scalars.
        public init(byteOffset: Int, byte: UInt8, line: Int, column: Int) {
            self.byteOffset = byteOffset
            self.byte = byte
            self.line = line
            self.column = column
        }

        /// `not valid UTF-8 text: invalid byte 0xFF at byte offset 22`, without the position,
        /// which a diagnostic prints before it.
        public var message: String {
            let hex = String(byte, radix: 16, uppercase: true)
            return "not valid UTF-8 text: invalid byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(byteOffset)"
        }

        /// `line:column: message`.
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Decodes UTF-8 bytes, a byte order mark kept (the parser reads it).
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Returns: The text.
    /// - Throws: `InvalidUTF8` with the position of the first byte that is not UTF-8.
    public static func decode(_ bytes: [UInt8]) throws(InvalidUTF8) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                offset += encoded.count
            case .error:
                throw InvalidUTF8(byteOffset: offset, byte: bytes[offset], line: line, column: column)
            case .emptyInput:
                // Unreachable: the bytes did not validate, so the parser meets an error first.
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}
