import Glibc
import Synchronization

/// The sanity upstream: an HTTP/1.1 server on POSIX sockets that answers with what reached it.
///
/// One ``EventLoop`` per processor serves connections on non-blocking sockets with `epoll(7)`:
/// no thread per connection and no thread that sleeps. Requests are read with
/// ``HTTPRequestParser`` and answered through the routes (``Route/table``). Connections are
/// persistent (RFC 9112 section 9.3) and may pipeline.
///
/// ```swift
/// let server = SanityServer(configuration: ServerConfiguration(port: 0)) { entries in entries.forEach { print($0) } }
/// let address = try server.start()   // e.g. 127.0.0.1:41234
/// // ... on SIGTERM:
/// server.shutdown()                  // in-flight requests finish within the grace period
/// ```
public final class SanityServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    let clock: ServerClock
    let accessLog: @Sendable ([AccessLogEntry]) -> Void
    let accessLogDropped: @Sendable (Int) -> Void
    let handler: any RequestHandler
    /// Phase and bound address.
    let state = Mutex(State())
    /// Readable once the server has stopped, for ``waitUntilStopped()`` to sleep on.
    private let stoppedSignal = try? EventSignal()

    /// Where the server is in its life.
    enum Phase: Sendable {
        case created
        case starting
        case running(ServerRuntime)
        case stopping
        case stopped
    }

    /// What ``state`` guards.
    struct State: Sendable {
        var phase = Phase.created
        var boundAddress: SocketAddress?
        /// The loops' shared counters, kept after shutdown for ``openConnectionCount``.
        var control: EventLoop.Control?
    }

    /// Creates a server; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: Address, name and limits.
    ///   - clock: Wall and monotonic time; ``ServerClock/system`` outside tests.
    ///   - handler: What answers requests; `nil` for the sanity routes (``Route/table``).
    ///   - accessLog: Called with the entries of answered requests, in order and in batches (one
    ///     entry per request), from one logging thread that the event loops hand entries to, so a
    ///     slow log never holds up a connection; the caller formats the entries and chooses where
    ///     they go, ideally in one write per batch. At most 65,536 entries wait: when the log
    ///     stops being read, the rest are dropped and counted.
    ///   - accessLogDropped: Called on the logging thread with how many entries were dropped
    ///     since the last batch, before that batch.
    public init(
        configuration: ServerConfiguration,
        clock: ServerClock = .system,
        handler: (any RequestHandler)? = nil,
        accessLog: @escaping @Sendable ([AccessLogEntry]) -> Void = { _ in },
        accessLogDropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.accessLog = accessLog
        self.accessLogDropped = accessLogDropped
        self.handler =
            handler
            ?? Router(serverName: configuration.name, maxDelayMilliseconds: Self.milliseconds(configuration.maxDelay))
    }

    /// How many event loops serve: as configured, or one per online processor, 1 to 64.
    var loopCount: Int {
        configuration.eventLoops > 0
            ? configuration.eventLoops : min(max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1), 64)
    }

    /// Binds, listens and starts the event loops.
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
        var started = 0
        do throws(ServerError) {
            try DetachedThread.start { runtime.logQueue.run() }
            for loop in runtime.loops {
                try DetachedThread.start { loop.run() }
                started += 1
            }
        } catch {
            // Loops that run end at once when forced; the others never ran.
            runtime.control.stage.store(2, ordering: .relaxed)
            runtime.wakeLoops()
            let ended = runtime.waitForLoops(started: started, milliseconds: 2000)
            runtime.loops[started...].forEach { $0.discard() }
            _ = runtime.logQueue.stop(timeoutMilliseconds: 2000)
            runtime.release(loopsEnded: ended, runningCount: started)
            state.withLock { $0.phase = .created }
            throw error
        }
        state.withLock { state in
            state.phase = .running(runtime)
            state.boundAddress = runtime.listener.address
            state.control = runtime.control
        }
        return runtime.listener.address
    }

    private func makeRuntime() throws(ServerError) -> ServerRuntime {
        let listener = try ListeningSocket(host: configuration.host, port: configuration.port)
        var wakeSignals: [EventSignal] = []
        var loops: [EventLoop] = []
        do throws(ServerError) {
            for _ in 0..<loopCount { wakeSignals.append(try EventSignal()) }
            let control = EventLoop.Control(wakeSignals: wakeSignals)
            let logQueue = try AccessLogQueue(write: accessLog) { [accessLogDropped] count in accessLogDropped(count) }
            do throws(ServerError) {
                for index in wakeSignals.indices {
                    loops.append(
                        try EventLoop(
                            index: index, configuration: configuration, clock: clock, handler: handler, control: control,
                            listener: listener, logQueue: logQueue))
                }
            } catch {
                logQueue.discard()
                throw error
            }
            return ServerRuntime(listener: listener, loops: loops, control: control, logQueue: logQueue)
        } catch {
            loops.forEach { $0.discard() }
            wakeSignals.forEach { $0.close() }
            listener.close()
            throw error
        }
    }

    deinit {
        stoppedSignal?.close()
    }

    /// The address the server listens on; `nil` before ``start()``.
    public var boundAddress: SocketAddress? { state.withLock { $0.boundAddress } }

    /// How many connections are being served now (not counting ones only lingering to close).
    public var openConnectionCount: Int {
        state.withLock { $0.control }?.servedCount.load(ordering: .relaxed) ?? 0
    }

    /// Stops the server gracefully: stop accepting, close idle connections, let requests in flight
    /// finish and close their connections, and after the grace period close what is left.
    ///
    /// Blocks until every event loop has ended or the grace period plus about two seconds has
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
            stoppedSignal?.signal()
            waitUntilStopped()
            return ShutdownResult(forcedConnectionCount: 0)
        }
        let control = runtime.control
        control.stage.store(1, ordering: .relaxed)
        // Not listening any more: new clients are refused at once (a load balancer moves on)
        // instead of waiting in the backlog until the process exits. shutdown(2) on a listening
        // socket does that on Linux; the descriptor stays valid for the loops until release.
        try? SystemCall.shutdown(runtime.listener.descriptor, Int32(SHUT_RD))
        runtime.wakeLoops()
        let graceNanoseconds = UInt64(Self.milliseconds(grace ?? configuration.grace)) * 1_000_000
        let graceEnd = clock.monotonicNanoseconds() + graceNanoseconds
        while control.servedCount.load(ordering: .relaxed) > 0 && clock.monotonicNanoseconds() < graceEnd {
            Self.pause(milliseconds: 2)
        }
        // Answers already sent may still sit in socket buffers: lingering connections finish
        // within their own short linger time, inside the grace period.
        while control.lingeringAfterAnswerCount.load(ordering: .relaxed) > 0 && clock.monotonicNanoseconds() < graceEnd {
            Self.pause(milliseconds: 2)
        }
        let forced = control.servedCount.load(ordering: .relaxed)
        control.stage.store(2, ordering: .relaxed)
        runtime.wakeLoops()
        let loopsEnded = runtime.waitForLoops(started: runtime.loops.count, milliseconds: 2000)
        // The last entries are written before shutdown returns.
        _ = runtime.logQueue.stop(timeoutMilliseconds: 2000)
        runtime.release(loopsEnded: loopsEnded, runningCount: runtime.loops.count)
        state.withLock { $0.phase = .stopped }
        stoppedSignal?.signal()
        return ShutdownResult(forcedConnectionCount: forced)
    }

    /// Blocks until ``shutdown(grace:)`` has finished, e.g. on the main thread of `stagebuild
    /// serve`: asleep on a signal, not polling.
    public func waitUntilStopped() {
        while true {
            let stopped = state.withLock { state -> Bool in
                if case .stopped = state.phase { return true }
                return false
            }
            if stopped { return }
            guard let stoppedSignal else {
                Self.pause(milliseconds: 10)
                continue
            }
            var entries = [pollfd(fd: stoppedSignal.descriptor, events: Int16(POLLIN), revents: 0)]
            _ = try? SystemCall.poll(&entries) { 1000 }
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
