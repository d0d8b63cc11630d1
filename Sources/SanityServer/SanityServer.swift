import Glibc
import Synchronization

/// The sanity upstream: an HTTP/1.1 server on POSIX sockets that answers with what reached it.
///
/// One thread accepts, one thread per connection reads requests with ``HTTPRequestParser`` and
/// answers through the routes (`/`, `/anything[/...]`, `/headers`, `/ip`, `/status/CODE`,
/// `/delay/MS`, `/healthz`). Connections are persistent (RFC 9112 section 9.3) and may pipeline.
///
/// ```swift
/// let server = SanityServer(configuration: ServerConfiguration(port: 0)) { entry in print(entry) }
/// let address = try server.start()   // e.g. 127.0.0.1:41234
/// // ... on SIGTERM:
/// server.shutdown()                  // in-flight requests finish within the grace period
/// ```
public final class SanityServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    let clock: ServerClock
    let accessLog: @Sendable (AccessLogEntry) -> Void
    let router: Router
    private let stopping = Atomic<Bool>(false)
    /// Phase, bound address and the connections being served; shared by every server thread.
    let state = Mutex(State())

    /// Where the server is in its life.
    enum Phase: Sendable {
        case created
        case starting
        case running(ServerRuntime)
        case stopping
        case stopped
    }

    /// What the server's threads share under ``state``'s lock.
    struct State: Sendable {
        var phase = Phase.created
        var boundAddress: SocketAddress?
        /// Connection identifier -> socket, for every connection a thread serves.
        var connections: [Int: Int32] = [:]
        var nextConnectionID = 0
        var acceptLoopRunning = false
    }

    /// Creates a server; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: Address, name and limits.
    ///   - clock: Wall and monotonic time; ``ServerClock/system`` outside tests.
    ///   - accessLog: Called once per answered request, from connection threads, possibly at the
    ///     same time; the caller formats the entry and chooses where it goes.
    public init(
        configuration: ServerConfiguration,
        clock: ServerClock = .system,
        accessLog: @escaping @Sendable (AccessLogEntry) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.accessLog = accessLog
        self.router = Router(
            serverName: configuration.name,
            maxDelayMilliseconds: Self.milliseconds(configuration.maxDelay))
    }

    /// Binds, listens and starts accepting connections.
    ///
    /// - Returns: The address actually bound, with the kernel's port when the configuration asked
    ///   for port 0.
    /// - Throws: ``ServerError/invalidConfiguration(_:requirement:)`` or ``ServerError/invalidHost(_:)`` for a
    ///   bad configuration, ``ServerError/alreadyStarted`` on a second call, and
    ///   ``ServerError/systemCall(call:errno:)`` when a socket cannot be made, e.g. `bind` with
    ///   `EADDRINUSE`.
    @discardableResult
    public func start() throws(ServerError) -> SocketAddress {
        try configuration.validate()
        try state.withLock { (state) throws(ServerError) in
            guard case .created = state.phase else { throw .alreadyStarted }
            state.phase = .starting
        }
        let runtime: ServerRuntime
        do throws(ServerError) {
            runtime = try makeRuntime()
        } catch {
            state.withLock { $0.phase = .created }
            throw error
        }
        do throws(ServerError) {
            try DetachedThread.start { runtime.lingerer.run() }
        } catch {
            runtime.release(lingererRunning: false)
            state.withLock { $0.phase = .created }
            throw error
        }
        state.withLock { state in
            state.phase = .running(runtime)
            state.boundAddress = runtime.listener.address
            state.acceptLoopRunning = true
        }
        do throws(ServerError) {
            try DetachedThread.start { [self] in acceptLoop(runtime) }
        } catch {
            runtime.release(lingererRunning: true)
            state.withLock { state in
                state.phase = .created
                state.boundAddress = nil
                state.acceptLoopRunning = false
            }
            throw error
        }
        return runtime.listener.address
    }

    private func makeRuntime() throws(ServerError) -> ServerRuntime {
        let listener = try ListeningSocket(host: configuration.host, port: configuration.port)
        var opened: [EventSignal] = []
        do throws(ServerError) {
            let stopSignal = try EventSignal()
            opened.append(stopSignal)
            let forceSignal = try EventSignal()
            opened.append(forceSignal)
            let lingerer = try LingeringCloser(lingerSeconds: min(configuration.readDeadline, 2), clock: clock)
            return ServerRuntime(listener: listener, stopSignal: stopSignal, forceSignal: forceSignal, lingerer: lingerer)
        } catch {
            opened.forEach { $0.close() }
            listener.close()
            throw error
        }
    }

    /// The address the server listens on; `nil` before ``start()``.
    public var boundAddress: SocketAddress? { state.withLock { $0.boundAddress } }

    /// How many connections are being served now (not counting ones only lingering to close).
    public var openConnectionCount: Int { state.withLock { $0.connections.count } }

    /// Whether ``shutdown(grace:)`` has begun: responses now carry `Connection: close`.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Stops the server gracefully: stop accepting, close idle connections, let requests in flight
    /// finish and close their connections, and after the grace period close what is left.
    ///
    /// Blocks until every server thread has ended or the grace period plus about two seconds has
    /// passed. Calling it again, or on a server that never started, returns once it is stopped.
    ///
    /// - Parameters:
    ///   - grace: Seconds that requests in flight get; `nil` uses ``ServerConfiguration/grace``.
    /// - Returns: How many connections had to be closed at the end of the grace period.
    @discardableResult
    public func shutdown(grace: Double? = nil) -> ShutdownResult {
        var runtime: ServerRuntime?
        while true {
            let phase = state.withLock { state -> Phase in
                let phase = state.phase
                switch phase {
                case .running: state.phase = .stopping
                case .created: state.phase = .stopped
                case .starting, .stopping, .stopped: break
                }
                return phase
            }
            if case .starting = phase {
                Self.pause(milliseconds: 1)
                continue
            }
            if case .running(let running) = phase { runtime = running }
            break
        }
        guard let runtime else {
            waitUntilStopped()
            return ShutdownResult(forcedConnectionCount: 0)
        }
        stopping.store(true, ordering: .relaxed)
        runtime.stopSignal.signal()
        let graceNanoseconds = UInt64(Self.milliseconds(grace ?? configuration.grace)) * 1_000_000
        waitUntil(clock.monotonicNanoseconds() + graceNanoseconds) { $0.connections.isEmpty }
        let forced = state.withLock { state -> Int in
            for descriptor in state.connections.values { try? SystemCall.shutdown(descriptor, Int32(SHUT_RDWR)) }
            return state.connections.count
        }
        runtime.forceSignal.signal()
        let settleDeadline = clock.monotonicNanoseconds() + 2_000_000_000
        waitUntil(settleDeadline) { $0.connections.isEmpty && !$0.acceptLoopRunning }
        let lingererEnded = runtime.lingerer.stop(timeoutMilliseconds: 2000)
        let threadsEnded = state.withLock { $0.connections.isEmpty && !$0.acceptLoopRunning }
        if lingererEnded && threadsEnded {
            runtime.stopSignal.close()
            runtime.forceSignal.close()
        }
        state.withLock { $0.phase = .stopped }
        return ShutdownResult(forcedConnectionCount: forced)
    }

    /// Blocks until ``shutdown(grace:)`` has finished, e.g. on the main thread of `stagebuild serve`.
    public func waitUntilStopped() {
        while true {
            let stopped = state.withLock { state -> Bool in
                if case .stopped = state.phase { return true }
                return false
            }
            if stopped { return }
            Self.pause(milliseconds: 10)
        }
    }

    private func waitUntil(_ deadline: UInt64, _ condition: (State) -> Bool) {
        while !state.withLock({ condition($0) }) && clock.monotonicNanoseconds() < deadline {
            Self.pause(milliseconds: 2)
        }
    }

    /// Whole milliseconds of a duration in seconds, clamped to `0...86_400_000` (one day); not-a-number is 0.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds, 86_400) * 1000)
    }

    /// Sleeps the calling thread.
    static func pause(milliseconds: Int32) {
        var none: [pollfd] = []
        _ = try? SystemCall.poll(&none) { milliseconds }
    }
}
