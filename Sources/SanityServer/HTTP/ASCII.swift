import Serialization

/// Byte classes and small text helpers from RFC 9110 section 5.6 and RFC 9112.
enum ASCII {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A

    /// RFC 3986's `unreserved / sub-delims` (section 2): what a reg-name holds besides `%XX`.
    static func isHostCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=".utf8.contains(byte)
        }
    }

    /// Text from header bytes: UTF-8 when valid, otherwise ISO-8859-1 byte for byte
    /// (RFC 9110 section 5.5 treats obs-text as opaque).
    static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Compares two strings ASCII-case-insensitively, as field names compare (RFC 9110 section 5.1).
    static func equalsIgnoringCase(_ left: String, _ right: String) -> Bool {
        let leftBytes = left.utf8
        let rightBytes = right.utf8
        guard leftBytes.count == rightBytes.count else { return false }
        return zip(leftBytes, rightBytes).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// Compares bytes with a lowercase ASCII string, ignoring the bytes' case.
    static func bytes<Bytes: Collection<UInt8>>(_ bytes: Bytes, equalLowercase text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { lowercased($0) == $1 }
        }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The elements of a comma-separated list, trimmed, without empty ones (RFC 9110 section 5.6.1).
    static func listElements(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
    }
}
