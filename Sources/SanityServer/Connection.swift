import Glibc

/// One client connection, served on its own thread: read a request, answer it, and repeat while
/// the connection is persistent (RFC 9112 section 9.3), pipelined requests in order.
struct Connection {
    /// How the connection should be closed once ``run()`` returns.
    enum Ending {
        /// The peer is gone or the socket failed: close at once.
        case closeNow
        /// The server ends it: half-close and let ``LingeringCloser`` finish.
        case linger
    }

    private let descriptor: Int32
    private let peer: SocketAddress
    private let local: SocketAddress
    private let server: SanityServer
    private let runtime: ServerRuntime
    private var parser: HTTPRequestParser
    private var input: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 16384)
    private var cachedDate: (second: Int, text: String) = (Int.min, "")

    /// Prepares a connection; sets the send timeout to the read deadline so a client that stops
    /// reading cannot hold the thread.
    ///
    /// - Parameters:
    ///   - descriptor: The accepted, blocking socket; ``run()`` does not close it.
    ///   - peer: The TCP peer.
    ///   - server: The server, for its configuration, router, clock and access log.
    ///   - runtime: The shared signals and the lingering closer.
    init(descriptor: Int32, peer: SocketAddress, server: SanityServer, runtime: ServerRuntime) {
        self.descriptor = descriptor
        self.peer = peer
        self.server = server
        self.runtime = runtime
        let configuration = server.configuration
        parser = HTTPRequestParser(maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
        local = (try? ListeningSocket.localAddress(of: descriptor)).flatMap { $0 } ?? runtime.listener.address
        let seconds = configuration.readDeadline
        let timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        try? SystemCall.setOption(descriptor, SOL_SOCKET, SO_SNDTIMEO, timeout)
    }

    private var deadlineNanoseconds: UInt64 { UInt64(server.configuration.readDeadline * 1e9) }

    /// Serves requests until the connection ends.
    ///
    /// - Returns: How the caller should close the socket.
    mutating func run() -> Ending {
        while true {
            let idleSince = server.clock.monotonicNanoseconds()
            var requestStart: UInt64? = input.isEmpty ? nil : idleSince
            var sentContinue = false
            var parsed: (request: HTTPRequest, consumedByteCount: Int)?
            while parsed == nil {
                if !input.isEmpty {
                    do throws(HTTPRequestError) {
                        parsed = try parser.parse(input)
                    } catch {
                        return reject(.rejection(error), start: requestStart ?? idleSince)
                    }
                    if parsed != nil { break }
                    if parser.expectsContinue && !sentContinue {
                        sentContinue = true
                        guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closeNow }
                    }
                }
                switch waitForInput(until: (requestStart ?? idleSince) + deadlineNanoseconds, idle: input.isEmpty) {
                case .readable:
                    break
                case .timedOut:
                    guard let requestStart else { return .linger }
                    return reject(.requestTimeout(seconds: server.configuration.readDeadline), start: requestStart)
                case .stopping:
                    return .linger
                }
                let count: Int
                do throws(ServerError) {
                    count = try SystemCall.receive(descriptor, into: &scratch)
                } catch {
                    return .closeNow
                }
                if count == 0 {
                    guard let requestStart else { return .closeNow }
                    return reject(.rejection(.incompleteRequest), start: requestStart)
                }
                if input.isEmpty { requestStart = server.clock.monotonicNanoseconds() }
                input.append(contentsOf: scratch[0..<count])
            }
            guard let (request, consumed) = parsed else { return .closeNow }
            guard let keepsOpen = respond(to: request, start: requestStart ?? idleSince) else { return .closeNow }
            if consumed == input.count { input.removeAll(keepingCapacity: true) } else { input.removeFirst(consumed) }
            if !keepsOpen { return .linger }
        }
    }

    /// Answers one request.
    ///
    /// - Returns: Whether the connection stays open, or `nil` when the socket failed.
    private mutating func respond(to request: HTTPRequest, start: UInt64) -> Bool? {
        let response = server.router.response(to: request, peer: peer, local: local)
        if response.delayMilliseconds > 0 && !wait(milliseconds: response.delayMilliseconds) { return nil }
        let keepsOpen = request.keepsConnectionOpen && !server.isStopping
        let connection: String? = keepsOpen ? (request.version.minor == 0 ? "keep-alive" : nil) : "close"
        let (bytes, contentBytes) = response.serialized(
            date: date(), server: server.configuration.name, connection: connection, omitsContent: request.method == "HEAD")
        guard send(bytes) else { return nil }
        log(
            method: request.method, target: request.target, version: request.version.description,
            status: response.status, bytes: contentBytes, start: start)
        return keepsOpen
    }

    /// Answers an unreadable or late request and ends the connection.
    private mutating func reject(_ response: HTTPResponse, start: UInt64) -> Ending {
        let (bytes, contentBytes) = response.serialized(
            date: date(), server: server.configuration.name, connection: "close", omitsContent: false)
        guard send(bytes) else { return .closeNow }
        log(method: nil, target: nil, version: nil, status: response.status, bytes: contentBytes, start: start)
        return .linger
    }

    private enum Readiness {
        case readable
        case timedOut
        case stopping
    }

    /// Waits for input until the deadline; while `idle` (no byte of a request yet) shutdown also
    /// ends the wait.
    private func waitForInput(until deadline: UInt64, idle: Bool) -> Readiness {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if idle { entries.append(pollfd(fd: runtime.stopSignal.descriptor, events: Int16(POLLIN), revents: 0)) }
        let clock = server.clock
        let ready: Int
        do throws(ServerError) {
            ready = try SystemCall.poll(&entries) {
                let now = clock.monotonicNanoseconds()
                return deadline <= now ? 0 : Int32(min((deadline - now + 999_999) / 1_000_000, 3_600_000))
            }
        } catch {
            return .readable  // recv reports the failure
        }
        if ready == 0 { return server.clock.monotonicNanoseconds() >= deadline ? .timedOut : .readable }
        if entries[0].revents != 0 { return .readable }
        return .stopping
    }

    /// Sleeps for `/delay/MS`; `false` when shutdown's grace period ran out first.
    private func wait(milliseconds: Int) -> Bool {
        var entries = [pollfd(fd: runtime.forceSignal.descriptor, events: Int16(POLLIN), revents: 0)]
        let deadline = server.clock.monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
        let clock = server.clock
        while true {
            let ready =
                (try? SystemCall.poll(&entries) {
                    let now = clock.monotonicNanoseconds()
                    return deadline <= now ? 0 : Int32(min((deadline - now + 999_999) / 1_000_000, 3_600_000))
                }) ?? 0
            if ready > 0 { return false }
            if clock.monotonicNanoseconds() >= deadline { return true }
        }
    }

    /// Sends every byte; `false` when the peer is gone or stopped reading past the deadline.
    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let sent = try? SystemCall.send(descriptor, bytes, from: offset) else { return false }
            offset += sent
        }
        return true
    }

    /// The `Date` value, formatted once per second.
    private mutating func date() -> String {
        let second = Int(server.clock.wallSeconds().rounded(.down))
        if second != cachedDate.second { cachedDate = (second, HTTPDate.string(secondsSince1970: second)) }
        return cachedDate.text
    }

    private func log(method: String?, target: String?, version: String?, status: Int, bytes: Int, start: UInt64) {
        let now = server.clock.monotonicNanoseconds()
        let elapsed = now >= start ? now - start : 0
        server.accessLog(
            AccessLogEntry(
                time: server.clock.wallSeconds(), method: method, target: target, version: version, status: status,
                bytes: bytes, durationMilliseconds: Double(elapsed) / 1e6, peer: peer))
    }
}
