import Glibc

/// A bound, listening TCP socket (IPv4 or IPv6) and the connections it accepts.
struct ListeningSocket: Sendable {
    /// The listening descriptor, non-blocking.
    let descriptor: Int32
    /// The address actually bound; the port is the kernel's pick when 0 was asked for.
    let address: SocketAddress

    /// How many connections the kernel queues before `accept`.
    static let backlog: Int32 = 1024

    /// Binds and listens.
    ///
    /// - Parameters:
    ///   - host: A numeric IPv4 or IPv6 address; an IPv6 socket also takes IPv4 (`IPV6_V6ONLY` off),
    ///     so `"::"` serves both families.
    ///   - port: The TCP port; `0` picks a free one.
    /// - Throws: ``ServerError/invalidHost(_:)`` or ``ServerError/systemCall(call:errno:)`` naming
    ///   `socket`, `setsockopt`, `bind`, `listen` or `getsockname`.
    init(host: String, port: Int) throws(ServerError) {
        guard let resolved = SocketAddress.storage(host: host, port: port) else { throw .invalidHost(host) }
        var storage = resolved.0
        let length = resolved.1
        let family = Int32(storage.ss_family)
        let descriptor = try SystemCall.run("socket") {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        do throws(ServerError) {
            try SystemCall.setOption(descriptor, SOL_SOCKET, SO_REUSEADDR, Int32(1))
            if family == AF_INET6 { try SystemCall.setOption(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(0)) }
            _ = try withUnsafePointer(to: &storage) { (pointer) throws(ServerError) -> Int32 in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(ServerError) -> Int32 in
                    try SystemCall.run("bind") { bind(descriptor, address, length) }
                }
            }
            _ = try SystemCall.run("listen") { listen(descriptor, Self.backlog) }
            guard let bound = try Self.localAddress(of: descriptor) else { throw .invalidHost(host) }
            self.descriptor = descriptor
            self.address = bound
        } catch {
            SystemCall.close(descriptor)
            throw error
        }
    }

    /// Accepts one queued connection.
    ///
    /// The new socket is non-blocking and close-on-exec, with `TCP_NODELAY` so small responses
    /// leave at once.
    ///
    /// - Returns: The connection's descriptor and its peer, or `nil` when none is queued.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"accept4"`, e.g. with `EMFILE`.
    func accept() throws(ServerError) -> (descriptor: Int32, peer: SocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let accepted: Int32
        do throws(ServerError) {
            accepted = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(ServerError) -> Int32 in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(ServerError) -> Int32 in
                    try SystemCall.run("accept4") {
                        Self.acceptWithFlags(
                            descriptor, address, &length, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
                    }
                }
            }
        } catch {
            if case .systemCall(_, let code) = error, code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED {
                return nil
            }
            throw error
        }
        try? SystemCall.setOption(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, Int32(1))
        return (accepted, SocketAddress(storage) ?? SocketAddress(host: "unknown", port: 0))
    }

    /// The local address of a socket, from `getsockname(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: A bound socket.
    /// - Returns: `nil` for a family other than IPv4 and IPv6.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"getsockname"`.
    static func localAddress(of descriptor: Int32) throws(ServerError) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(ServerError) -> Int32 in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(ServerError) -> Int32 in
                try SystemCall.run("getsockname") { getsockname(descriptor, address, &length) }
            }
        }
        return SocketAddress(storage)
    }

    /// `accept4(2)`, which Glibc's Swift module hides behind `_GNU_SOURCE`; looked up once in libc
    /// so that accepted sockets are close-on-exec from their first instant.
    private static let acceptWithFlags:
        @convention(c) (
            Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
        ) -> Int32 = {
            typealias Accept4 =
                @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
            if let symbol = dlsym(nil, "accept4") { return unsafeBitCast(symbol, to: Accept4.self) }
            return { descriptor, address, length, _ in
                let accepted = Glibc.accept(descriptor, address, length)
                if accepted >= 0 {
                    _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
                }
                return accepted
            }
        }()

    /// Stops listening and releases the port.
    func close() {
        SystemCall.close(descriptor)
    }
}
