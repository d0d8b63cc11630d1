#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IP address, parsed by the C library's `inet_pton` as libcurl does (libcurl's
/// `Curl_inet_pton` is `inet_pton` on Linux).
public enum IPAddress: Equatable, Sendable {
    /// Four bytes, network order.
    case v4([UInt8])
    /// Sixteen bytes, network order.
    case v6([UInt8])

    /// `text` as an IPv4 address in dotted-quad form (`inet_pton(AF_INET)`: exactly four
    /// decimal parts 0-255, no leading zeros), or `nil`.
    public static func v4(parsing text: String) -> IPAddress? {
        parse(text, family: AF_INET, count: 4).map(IPAddress.v4)
    }

    /// `text` as an IPv6 address without brackets (`inet_pton(AF_INET6)`, RFC 4291 section 2.2
    /// text forms, no zone id), or `nil`.
    public static func v6(parsing text: String) -> IPAddress? {
        parse(text, family: AF_INET6, count: 16).map(IPAddress.v6)
    }

    /// The address bytes in network order.
    public var bytes: [UInt8] {
        switch self {
        case .v4(let bytes), .v6(let bytes): bytes
        }
    }

    private static func parse(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        guard !text.utf8.contains(0) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) }
        return result == 1 ? bytes : nil
    }

    /// Whether the first `prefixLength` bits of `self` and `network` are equal (a CIDR match,
    /// RFC 4632 section 3.1). Both must be of the same family.
    func hasPrefix(_ prefixLength: Int, of network: IPAddress) -> Bool {
        let mine = bytes
        let theirs = network.bytes
        guard mine.count == theirs.count, prefixLength >= 0, prefixLength <= mine.count * 8 else { return false }
        let whole = prefixLength / 8
        let rest = prefixLength % 8
        guard mine[..<whole] == theirs[..<whole] else { return false }
        guard rest > 0 else { return true }
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - rest))
        return (mine[whole] ^ theirs[whole]) & mask == 0
    }
}
