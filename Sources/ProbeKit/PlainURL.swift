/// A cheap check for the common shape of a target URL, so that a run over a million targets
/// does not parse each one twice before its turn: `http://` or `https://`, a host of ASCII
/// letters, digits, `.` and `-` (or a dotted IPv4 address), an optional port from 0 to 65535,
/// and a path and query of RFC 3986 characters (unreserved, sub-delims, `:` `@` `/` `?`, and
/// `%` with two hex digits). No user info, no IPv6 literal, no fragment: those take the full
/// parse. Every URL of this shape parses with Foundation and libcurl alike.
public struct PlainURL: Sendable, Equatable {
    /// Whether the scheme is `https`.
    public var isHTTPS: Bool
    /// The host as written.
    public var host: String

    /// The parts of `text` when it has the plain shape, else `nil`.
    ///
    /// - Parameter text: A target URL as given.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count < 8_192 else { return nil }
        let prefix: [UInt8]
        if bytes.starts(with: "https://".utf8) {
            isHTTPS = true
            prefix = Array("https://".utf8)
        } else if bytes.starts(with: "http://".utf8) {
            isHTTPS = false
            prefix = Array("http://".utf8)
        } else {
            return nil
        }
        let rest = bytes[prefix.count...]
        let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let colon = authority.firstIndex(of: UInt8(ascii: ":"))
        let hostBytes = authority[..<(colon ?? authority.endIndex)]
        guard let first = hostBytes.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-"),
            hostBytes.allSatisfy(Self.isHostByte)
        else { return nil }
        host = String(decoding: hostBytes, as: UTF8.self)
        // All digits and dots is an IPv4 address to libcurl: it must be a valid one.
        if hostBytes.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            IPAddress.v4(parsing: host) == nil
        {
            return nil
        }
        if let colon {
            let port = authority[authority.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let number = Int(String(decoding: port, as: UTF8.self)), number <= 65_535
            else { return nil }
        }
        var index = authorityEnd
        while index < rest.endIndex {
            let byte = rest[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < rest.endIndex, Self.isHex(rest[index + 1]), Self.isHex(rest[index + 2]) else { return nil }
                index += 3
                continue
            }
            guard Self.isPathByte(byte) else { return nil }
            index += 1
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Unreserved, sub-delims, `:`, `@`, `/` and `?` (RFC 3986 sections 2.2, 2.3, 3.3, 3.4).
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isHostByte(byte) || "_~!$&'()*+,;=:@/?".utf8.contains(byte)
    }
}
