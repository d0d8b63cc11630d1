import Serialization

/// The parts of a request target that routing and the echo show (RFC 9112 section 3.2,
/// RFC 3986 section 3).
struct RequestTarget: Sendable, Equatable {
    /// The path as sent, still percent-encoded; `"*"` for asterisk-form, the authority for CONNECT.
    var path: String
    /// The query's name-value pairs in order, duplicates kept, percent-decoded and `+` read as a
    /// space (HTML's application/x-www-form-urlencoded).
    var query: [(name: String, value: String)]

    static func == (left: RequestTarget, right: RequestTarget) -> Bool {
        left.path == right.path && left.query.elementsEqual(right.query) { $0 == $1 }
    }

    /// Splits a target into path and query; an absolute-form target loses its scheme and authority.
    ///
    /// - Parameters:
    ///   - target: The request target as sent.
    init(_ target: String) {
        var bytes = Array(target.utf8)[...]
        if let authorityStart = Self.authorityStart(bytes) {
            let afterAuthority = bytes[authorityStart...]
            let pathStart =
                afterAuthority.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? afterAuthority.endIndex
            bytes = afterAuthority[pathStart...]
        }
        if let fragment = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = bytes[..<fragment] }
        let mark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let pathBytes = bytes[..<mark]
        path = pathBytes.isEmpty ? "/" : String(decoding: pathBytes, as: UTF8.self)
        guard mark < bytes.endIndex else {
            query = []
            return
        }
        // Every pair in order, as sent; a name or value that is not UTF-8 is read as Latin-1.
        query = PercentEncoding.formPairs(bytes[(mark + 1)...]).map { (ASCII.string($0.name), ASCII.string($0.value)) }
    }

    /// The authority of an absolute URI, `scheme "://" authority` (RFC 3986 section 3.1), up to
    /// the path, query or fragment; `nil` for other forms.
    static func authority(ofAbsoluteForm target: String) -> String? {
        let bytes = Array(target.utf8)[...]
        guard let start = authorityStart(bytes) else { return nil }
        let rest = bytes[start...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        return String(decoding: rest[..<(end ?? rest.endIndex)], as: UTF8.self)
    }

    /// Where the authority starts in an absolute URI: after `scheme "://"`; `nil` for other forms.
    private static func authorityStart(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        var index = bytes.startIndex + 1
        while index < bytes.endIndex, isSchemeCharacter(bytes[index]) { index += 1 }
        guard bytes.endIndex - index >= 3, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        return index + 3
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}
