import Glibc
import Serialization

/// An IP address and TCP port: where the server listens, or where a request came from.
///
/// IPv4-mapped IPv6 peers (`::ffff:127.0.0.1`, seen on a dual-stack listener) are shown as the
/// IPv4 address they carry.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address without brackets, e.g. `"127.0.0.1"` or `"::1"`.
    public var host: String
    /// The TCP port, `0...65535`.
    public var port: Int

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - host: The numeric address without brackets, e.g. `"::1"`.
    ///   - port: The TCP port, `0...65535`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Whether ``host`` is an IPv6 address.
    public var isIPv6: Bool { host.contains(":") }

    /// `host:port`, with the host in brackets for IPv6 (RFC 3986 section 3.2.2), e.g. `"[::1]:8080"`.
    public var description: String {
        HostPort.joined(host, port)
    }

    /// The base URL a client uses to reach this address, e.g. `"http://127.0.0.1:8080"`.
    public var url: String { "http://\(description)" }
}

extension SocketAddress {
    /// Reads a socket address that the kernel filled in.
    ///
    /// - Parameters:
    ///   - storage: An `AF_INET` or `AF_INET6` address.
    /// - Returns: `nil` for any other family.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let parts = withUnsafeBytes(of: &storage) { raw -> (in_addr, UInt16) in
                let address = raw.loadUnaligned(as: sockaddr_in.self)
                return (address.sin_addr, UInt16(bigEndian: address.sin_port))
            }
            var address = parts.0
            guard let host = Self.numericHost(family: AF_INET, &address) else { return nil }
            self.init(host: host, port: Int(parts.1))
        case AF_INET6:
            let parts = withUnsafeBytes(of: &storage) { raw -> (in6_addr, UInt16) in
                let address = raw.loadUnaligned(as: sockaddr_in6.self)
                return (address.sin6_addr, UInt16(bigEndian: address.sin6_port))
            }
            var address = parts.0
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            let isMapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            if isMapped {
                self.init(host: "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])", port: Int(parts.1))
            } else {
                guard let host = Self.numericHost(family: AF_INET6, &address) else { return nil }
                self.init(host: host, port: Int(parts.1))
            }
        default:
            return nil
        }
    }

    /// Formats a binary address with `inet_ntop(3)`.
    private static func numericHost<Address>(family: Int32, _ address: inout Address) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let count = socklen_t(text.count)
        let result = withUnsafeBytes(of: &address) { raw in
            text.withUnsafeMutableBufferPointer { buffer in
                inet_ntop(family, raw.baseAddress, buffer.baseAddress, count)
            }
        }
        guard result != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Builds the kernel's form of a numeric address with `inet_pton(3)`.
    ///
    /// - Parameters:
    ///   - host: `"127.0.0.1"`, `"::1"` or `"[::1]"`.
    ///   - port: The TCP port.
    /// - Returns: The address and its length, or `nil` when `host` is not numeric.
    static func storage(host: String, port: Int) -> (sockaddr_storage, socklen_t)? {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var storage = sockaddr_storage()
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr = v4
            withUnsafeMutableBytes(of: &storage) { raw in raw.storeBytes(of: address, as: sockaddr_in.self) }
            return (storage, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = v6
            withUnsafeMutableBytes(of: &storage) { raw in raw.storeBytes(of: address, as: sockaddr_in6.self) }
            return (storage, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        return nil
    }
}
