import Foundation
import Glibc
import SanityServer

/// A raw TCP client for loopback tests: sends exactly the bytes it is given, malformed or not,
/// and reads responses with a time limit on every read.
final class TestClient {
    enum Failure: Error, CustomStringConvertible {
        case system(String, Int32)
        case timedOut
        case closedEarly([UInt8])
        case malformedResponse(String)

        var description: String {
            switch self {
            case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
            case .timedOut: return "timed out"
            case .closedEarly(let bytes): return "closed after \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))"
            case .malformedResponse(let text): return "malformed response: \(text)"
            }
        }
    }

    let descriptor: Int32
    private var pending: [UInt8] = []
    private var isClosed = false

    /// Connects to a loopback address.
    ///
    /// - Parameters:
    ///   - address: `127.0.0.1` or `::1` and a port.
    ///   - timeout: Seconds each read or write may block.
    init(_ address: SocketAddress, timeout: Double = 5) throws {
        let isIPv6 = address.isIPv6
        descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.system("socket", errno) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        if isIPv6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = UInt16(address.port).bigEndian
            inet_pton(AF_INET6, address.host, &socketAddress.sin6_addr)
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = UInt16(address.port).bigEndian
            inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure.system("connect", code)
        }
    }

    deinit { close() }

    /// The client's own port, as the server should report the peer.
    var localPort: Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return withUnsafeBytes(of: &storage) { raw in
            Int(UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self)))
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure.system("send", errno) }
            offset += sent
        }
    }

    /// Ends the client's sending side, as `curl` does not but a half-closing client may.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Reads more bytes; `false` at end of stream.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: buffer[0..<count])
                return true
            }
            if count == 0 { return false }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { throw Failure.timedOut }
            if code == ECONNRESET { return false }
            throw Failure.system("recv", code)
        }
    }

    /// Reads one response, framed by `Content-Length` (RFC 9112 section 6.3).
    ///
    /// - Parameters:
    ///   - toHead: `true` when the request was HEAD, whose response has no content.
    func readResponse(toHead: Bool = false) throws -> TestResponse {
        while true {
            if let end = pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                let head = String(decoding: pending[0..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
                guard !lines.isEmpty else { throw Failure.malformedResponse(head) }
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
                    throw Failure.malformedResponse(statusLine)
                }
                let fields = lines.map { line -> (String, String) in
                    let colon = line.firstIndex(of: ":") ?? line.endIndex
                    return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
                }
                let length = toHead ? 0 : fields.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
                while pending.count < end + length {
                    guard try fill() else { throw Failure.closedEarly(pending) }
                }
                let body = Array(pending[end..<(end + length)])
                pending.removeFirst(end + length)
                return TestResponse(status: status, fields: fields, body: body)
            }
            guard try fill() else { throw Failure.closedEarly(pending) }
        }
    }

    /// Reads until the server closes; everything that arrived.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { pending.removeAll() }
        return pending
    }

    /// Whether the server has closed the connection, or does within `seconds`, with nothing
    /// unread; does not consume anything.
    func isClosedByServer(within seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard pending.isEmpty, poll(&entry, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 0
    }

    /// Whether the server closed the connection with nothing more to read.
    func serverClosed() throws -> Bool {
        try readToEnd().isEmpty
    }
}
