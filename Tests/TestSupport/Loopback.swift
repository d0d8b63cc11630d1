import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1 for tests that need a peer, or the lack of one.
public enum LoopbackPort {
    /// A port on 127.0.0.1 where nothing listens: bound to port 0, read, and released. It was
    /// free a moment ago; a test that gives it to a server races only other binds to port 0.
    ///
    /// - Throws: ``TestSupportError/socket(_:_:)`` when a socket call fails.
    public static func unused() throws -> Int {
        let descriptor = try boundSocket()
        defer { close(descriptor) }
        return try localPort(of: descriptor)
    }

    /// A blocking TCP connection to 127.0.0.1 on `port`.
    ///
    /// - Returns: the connected socket's descriptor, which the caller closes.
    /// - Throws: ``TestSupportError/socket(_:_:)`` when the connection is refused or a call fails.
    public static func connect(_ port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError.socket("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let code = errno
            close(descriptor)
            throw TestSupportError.socket("connect", code)
        }
        return descriptor
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel chose, not listening.
    static func boundSocket() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError.socket("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw TestSupportError.socket("bind", code)
        }
        return descriptor
    }

    /// The local port of a bound socket.
    static func localPort(of descriptor: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw TestSupportError.socket("getsockname", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes connections into the
/// backlog (16), and nobody ever answers. A peer that "accepts and never answers". Closed when
/// the last reference goes.
public final class SilentListener: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    /// Binds a port the kernel chooses and listens on it.
    ///
    /// - Throws: ``TestSupportError/socket(_:_:)`` when a socket call fails.
    public init() throws {
        let descriptor = try LoopbackPort.boundSocket()
        do {
            guard listen(descriptor, 16) == 0 else { throw TestSupportError.socket("listen", errno) }
            port = try LoopbackPort.localPort(of: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
