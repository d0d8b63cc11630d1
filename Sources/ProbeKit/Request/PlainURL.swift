/// A cheap check for the common shape of a target URL, so that a run over a million targets
/// does not parse each one twice before its turn: `http://` or `https://`, a host of ASCII
/// letters, digits, `.` and `-` (a dotted IPv4 address, but no other text libcurl reads as an
/// IPv4 address, such as `127.1` or `0x7f.1`), an optional port from 0 to 65535,
/// and a path and query of RFC 3986 characters (unreserved, sub-delims, `:` `@` `/` `?`, and
/// `%` with two hex digits). No user info, no IPv6 literal, no fragment: those take the full
/// parse. Every URL of this shape parses with Foundation and libcurl alike, to the same host
/// (`URLDifferentialTests`).
public struct PlainURL: Sendable, Equatable {
    /// Whether the scheme is `https`.
    public var isHTTPS: Bool
    /// The host as written.
    public var host: String

    /// The parts of `text` when it has the plain shape, else `nil`.
    ///
    /// - Parameter text: A target URL as given.
    public init?(_ text: String) {
        var text = text
        // Native strings are contiguous already; this makes sure without a copy for them.
        text.makeContiguousUTF8()
        guard let parts = text.utf8.withContiguousStorageIfAvailable(Self.parts(of:)), let (isHTTPS, host) = parts else {
            return nil
        }
        self.isHTTPS = isHTTPS
        self.host = host
    }

    /// The parts of a URL given as UTF-8 when it has the plain shape, else `nil`.
    ///
    /// - Parameter bytes: A target URL's UTF-8.
    public init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard let (isHTTPS, host) = Self.parts(of: bytes) else { return nil }
        self.isHTTPS = isHTTPS
        self.host = host
    }

    /// The scheme and host of a URL's bytes when they have the plain shape.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (isHTTPS: Bool, host: String)? {
        guard bytes.count < 8_192 else { return nil }
        let isHTTPS: Bool
        func has(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { prefix in
                bytes.count >= prefix.count && (0..<prefix.count).allSatisfy { bytes[$0] == prefix[$0] }
            }
        }
        if has("https://") {
            isHTTPS = true
        } else if has("http://") {
            isHTTPS = false
        } else {
            return nil
        }
        let table = Self.table
        let rest = bytes[(isHTTPS ? 8 : 7)...]
        let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let colon = authority.firstIndex(of: UInt8(ascii: ":"))
        let hostBytes = authority[..<(colon ?? authority.endIndex)]
        guard let first = hostBytes.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-"),
            hostBytes.allSatisfy({ table[Int($0)] & hostByte != 0 })
        else { return nil }
        let host = String(decoding: hostBytes, as: UTF8.self)
        // libcurl reads a host that starts with a digit and holds only hex digits, `x` and dots
        // as an IPv4 address in any base (`127.1`, `0x7f.1`, `017700000001`: `ipv4_normalize`)
        // and connects to its dotted quad: only the dotted quad itself is plain.
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            hostBytes.allSatisfy({ table[Int($0)] & hexDigit != 0 || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "x") }),
            !isDottedQuad(hostBytes)
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
                guard index + 2 < rest.endIndex, table[Int(rest[index + 1])] & hexDigit != 0,
                    table[Int(rest[index + 2])] & hexDigit != 0
                else { return nil }
                index += 3
                continue
            }
            guard table[Int(byte)] & pathByte != 0 else { return nil }
            index += 1
        }
        return (isHTTPS, host)
    }

    /// Four decimal numbers from 0 to 255 without leading zeros, split by dots: the common
    /// IPv4 form, valid without the full parse (which also reads the other forms libcurl takes).
    private static func isDottedQuad(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var parts = 0
        var value = 0
        var digits = 0
        var leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                value = 0
                digits = 0
                continue
            }
            if digits == 0 { leadingZero = byte == UInt8(ascii: "0") } else if leadingZero { return false }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            guard value <= 255 else { return false }
        }
        return parts == 3 && digits > 0
    }

    private static let hostByte: UInt8 = 1
    private static let hexDigit: UInt8 = 2
    private static let pathByte: UInt8 = 4

    /// For each byte, which of the classes it is in: host (ASCII letters, digits, `.`, `-`),
    /// hex digit, and path: host bytes, unreserved, sub-delims, `:`, `@`, `/` and `?` (RFC 3986
    /// sections 2.2, 2.3, 3.3, 3.4).
    private static let table: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        let isHost =
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        let isHex =
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        let isPath = isHost || "_~!$&'()*+,;=:@/?".utf8.contains(byte)
        return (isHost ? hostByte : 0) | (isHex ? hexDigit : 0) | (isPath ? pathByte : 0)
    }
}
