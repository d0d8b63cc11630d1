import CEpoll
import Glibc
import Synchronization

/// One thread's share of the server: an `epoll(7)` set with the listening socket (shared by
/// every loop, `EPOLLEXCLUSIVE` so one loop wakes per new connection) and this loop's
/// connections, their deadlines in a ``TimerHeap``, and a wake-up signal for shutdown.
///
/// Nothing blocks: sockets are non-blocking, `/delay/MS` and every deadline are timers, and
/// access-log entries are handed to the ``AccessLogQueue`` once per turn.
///
/// Thread safety: everything but ``wake()`` and the shared ``Control`` is touched only by the
/// loop's own thread, inside ``run()``.
final class EventLoop: @unchecked Sendable {
    /// What the server and its loops tell one another, read by each loop when woken.
    final class Control: Sendable {
        /// `0` serving, `1` stopping (no new connections; idle ones close), `2` forcing (close all).
        let stage = Atomic<Int>(0)
        /// Connections that count against `--max-connections`, over every loop.
        let servedCount = Atomic<Int>(0)
        /// Connections lingering right after their last answer, over every loop: shutdown's
        /// grace covers them too, so an answer still in the socket buffers reaches a slow
        /// reader. Idle connections the server ends owe nothing and are not counted.
        let lingeringAfterAnswerCount = Atomic<Int>(0)
        /// Source of connection identifiers, over every loop.
        let nextConnectionID = Atomic<UInt64>(0)
        /// Idle keep-alive connections a loop above the high-water mark wanted closed but had
        /// none of: another loop that has one closes it.
        let evictionsWanted = Atomic<Int>(0)
        /// Each loop's wake-up signal, by loop index.
        let wakeSignals: [EventSignal]

        /// - Parameter wakeSignals: One per loop.
        init(wakeSignals: [EventSignal]) {
            self.wakeSignals = wakeSignals
        }
    }

    /// Later answers (``Responder``) posted from other threads, taken by the loop when woken.
    final class Mailbox: Sendable {
        /// One answer for one connection.
        struct Letter: Sendable {
            var descriptor: Int32
            var connectionID: UInt64
            var response: HTTPResponse
        }

        private struct State {
            var letters: [Letter] = []
            var open = true
        }

        private let state = Mutex(State())
        private let wake: EventSignal

        init(wake: EventSignal) {
            self.wake = wake
        }

        /// Queues a letter and wakes the loop; dropped once the loop is gone.
        func post(_ letter: Letter) {
            // Signalling under the lock: once close() has run, no one touches `wake` again.
            state.withLock { state in
                guard state.open else { return }
                state.letters.append(letter)
                if state.letters.count == 1 { wake.signal() }
            }
        }

        /// The letters posted since the last call.
        func take() -> [Letter] {
            state.withLock { state in
                defer { state.letters.removeAll() }
                return state.letters
            }
        }

        /// Refuses every later letter; before the wake-up signal is closed.
        func close() {
            state.withLock { $0.open = false }
        }
    }

    let configuration: ServerConfiguration
    let clock: ServerClock
    let handler: any RequestHandler
    let mailbox: Mailbox
    private let control: Control
    private let listener: ListeningSocket
    private let logQueue: AccessLogQueue
    private let epoll: Epoll
    private let wakeSignal: EventSignal
    private let index: Int
    /// Signalled when ``run()`` has returned.
    let finished: EventSignal
    private var connections: [Int32: EventConnection] = [:]
    private var lingeringCount = 0
    private var timers = TimerHeap()
    private var scratch = [UInt8](repeating: 0, count: 65536)
    private var events = [epoll_event](repeating: epoll_event(), count: 256)
    private var logBatch: [AccessLogEntry] = []
    private var cachedDate: (second: Int, text: String) = (Int.min, "")
    private var listening = true
    /// When accepting may resume after the process ran out of descriptors.
    private var acceptPausedUntil: UInt64?
    private let readDeadline: UInt64
    private let lingerNanoseconds: UInt64

    /// Sockets lingering at once per loop; beyond it a socket is closed at once.
    static let lingerCapacity = 4096

    /// A loop; ``run()`` must then be called on a thread of its own.
    ///
    /// - Parameters:
    ///   - index: The loop's place in ``Control/wakeSignals``.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` when its epoll set or signal cannot be made.
    init(
        index: Int, configuration: ServerConfiguration, clock: ServerClock, handler: any RequestHandler,
        control: Control, listener: ListeningSocket, logQueue: AccessLogQueue
    ) throws(ServerError) {
        self.index = index
        wakeSignal = control.wakeSignals[index]
        mailbox = Mailbox(wake: wakeSignal)
        self.configuration = configuration
        self.clock = clock
        self.handler = handler
        self.control = control
        self.listener = listener
        self.logQueue = logQueue
        readDeadline = UInt64(configuration.readDeadline * 1e9)
        lingerNanoseconds = UInt64(min(configuration.readDeadline, 2) * 1e9)
        epoll = try Epoll()
        do throws(ServerError) {
            finished = try EventSignal()
        } catch {
            epoll.close()
            throw error
        }
        do throws(ServerError) {
            try epoll.add(wakeSignal.descriptor, events: EPOLLIN.rawValue)
            try epoll.add(listener.descriptor, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue)
        } catch {
            finished.close()
            epoll.close()
            throw error
        }
    }

    /// Wakes the loop to read ``Control/stage``; any thread may call it until ``release()``.
    func wake() { wakeSignal.signal() }

    /// Closes its finished signal; only once ``run()`` has returned, or when it never ran (the
    /// wake-up signals belong to ``Control``).
    func release() {
        mailbox.close()
        finished.close()
    }

    /// Closes the epoll set and the signal of a loop whose ``run()`` never started.
    func discard() {
        epoll.close()
        release()
    }

    /// Whether the server is shutting down: answers now carry `Connection: close`.
    var isStopping: Bool { control.stage.load(ordering: .relaxed) >= 1 }

    /// Serves until ``Control/stage`` is forcing, then closes every connection and returns.
    func run() {
        defer {
            epoll.close()
            finished.signal()
        }
        var stage = 0
        while true {
            let count = epoll.wait(into: &events, timeoutMilliseconds: timeout())
            for index in 0..<count {
                let descriptor = events[index].data.fd
                let flags = events[index].events
                if descriptor == wakeSignal.descriptor {
                    wakeSignal.reset()
                    takeWantedEviction()
                    deliverLetters()
                } else if descriptor == listener.descriptor {
                    acceptQueued()
                } else {
                    handle(descriptor, flags)
                }
            }
            runTimers()
            let now = control.stage.load(ordering: .relaxed)
            if now != stage {
                stage = now
                if stage >= 1 { stopServing() }
                if stage >= 2 {
                    closeEverything()
                    flushLog()
                    return
                }
            }
            flushLog()
        }
    }

    // MARK: - Accepting

    private func acceptQueued() {
        guard listening, acceptPausedUntil == nil else { return }
        for _ in 0..<64 {
            let accepted: (descriptor: Int32, peer: SocketAddress)?
            do throws(ServerError) {
                accepted = try listener.accept()
            } catch {
                // EMFILE, ENFILE, ENOBUFS: the queued connection waits until descriptors free up.
                pauseAccepting()
                return
            }
            guard let (descriptor, peer) = accepted else { return }
            admit(descriptor, peer: peer)
        }
    }

    /// Stops watching the listener for 20 ms, so a full descriptor table is not a busy loop.
    private func pauseAccepting() {
        epoll.remove(listener.descriptor)
        acceptPausedUntil = clock.monotonicNanoseconds() + 20_000_000
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        if listening { try? epoll.add(listener.descriptor, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue) }
    }

    /// Serves a new connection, or answers 503 when the limit is reached. Above the high-water
    /// mark (90% of the limit) the oldest idle keep-alive connection of this loop is closed
    /// first, so idle sockets never hold new clients out.
    private func admit(_ descriptor: Int32, peer: SocketAddress) {
        let limit = configuration.maxConnections
        let highWater = max(1, limit - limit / 10)
        if control.servedCount.load(ordering: .relaxed) >= highWater && !closeOldestIdleConnection() {
            // None here: another loop that has one closes its oldest.
            control.evictionsWanted.add(1, ordering: .relaxed)
            for (other, signal) in control.wakeSignals.enumerated() where other != index { signal.signal() }
        }
        let now = clock.monotonicNanoseconds()
        let local = (try? ListeningSocket.localAddress(of: descriptor)).flatMap { $0 } ?? listener.address
        let id = control.nextConnectionID.wrappingAdd(1, ordering: .relaxed).newValue
        let served = reserveSlot(limit: limit)
        let connection = EventConnection(
            descriptor: descriptor, id: id, peer: peer, local: local, now: now, configuration: configuration,
            isServed: served)
        guard (try? epoll.add(descriptor, events: Epoll.readable)) != nil else {
            if served { releaseSlot() }
            SystemCall.close(descriptor)
            return
        }
        connections[descriptor] = connection
        if served {
            schedule(connection)
        } else {
            connection.reject(.overloaded(), start: now, self)
            advance(connection)
        }
    }

    private func reserveSlot(limit: Int) -> Bool {
        var current = control.servedCount.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = control.servedCount.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    private func releaseSlot() {
        control.servedCount.subtract(1, ordering: .relaxed)
    }

    /// Closes this loop's oldest idle keep-alive connection.
    ///
    /// - Returns: `false` when it has none.
    @discardableResult
    private func closeOldestIdleConnection() -> Bool {
        var oldest: EventConnection?
        for connection in connections.values where connection.isServed && connection.isIdle && connection.answeredCount > 0 {
            if oldest.map({ connection.idleSince < $0.idleSince }) ?? true { oldest = connection }
        }
        guard let oldest else { return false }
        linger(oldest)
        return true
    }

    /// Closes an idle keep-alive connection another loop asked for, while still above the
    /// high-water mark; a request left over from a moment already past is dropped.
    private func takeWantedEviction() {
        let limit = configuration.maxConnections
        while control.evictionsWanted.load(ordering: .relaxed) > 0 {
            guard control.servedCount.load(ordering: .relaxed) >= max(1, limit - limit / 10) else {
                control.evictionsWanted.store(0, ordering: .relaxed)
                return
            }
            let (taken, _) = control.evictionsWanted.compareExchange(
                expected: control.evictionsWanted.load(ordering: .relaxed), desired: 0, ordering: .relaxed)
            guard taken else { continue }
            closeOldestIdleConnection()
            return
        }
    }

    // MARK: - Connections

    private func handle(_ descriptor: Int32, _ flags: UInt32) {
        guard let connection = connections[descriptor] else { return }
        if case .lingering = connection.phase {
            if connection.discard(into: &scratch) { close(connection) }
            return
        }
        let problem = EPOLLERR.rawValue | EPOLLHUP.rawValue
        // Waiting on a timer or a later answer, it watches nothing: an error or hang-up (always
        // reported, level-triggered) means the client is gone.
        if connection.watchedEvents == 0 && flags & problem != 0 {
            close(connection)
            return
        }
        if flags & (Epoll.readable | problem) != 0, connection.watchedEvents & EPOLLIN.rawValue != 0 {
            guard connection.read(into: &scratch, now: clock.monotonicNanoseconds()) == .open else {
                close(connection)
                return
            }
        }
        advance(connection)
    }

    /// Moves a connection on as far as it can go now: answer what has arrived, send what the
    /// socket takes, then watch for what it waits on and schedule its next deadline.
    private func advance(_ connection: EventConnection) {
        while true {
            let moreToAnswer = connection.process(self)
            switch connection.flush(now: clock.monotonicNanoseconds()) {
            case .failed, .close:
                close(connection)
                return
            case .linger:
                linger(connection, afterAnswer: true)
                return
            case .open:
                break
            }
            if !(moreToAnswer && !connection.hasOutput) { break }
        }
        watch(connection)
        schedule(connection)
    }

    private func watch(_ connection: EventConnection) {
        let wanted = connection.wantedEvents
        guard wanted != connection.watchedEvents else { return }
        if (try? epoll.modify(connection.descriptor, events: wanted)) != nil { connection.watchedEvents = wanted }
    }

    private func schedule(_ connection: EventConnection) {
        guard let deadline = connection.nextDeadline(readDeadline: readDeadline) else { return }
        if let scheduled = connection.scheduledDeadline, scheduled <= deadline { return }
        connection.scheduledDeadline = deadline
        timers.insert(.init(deadline: deadline, descriptor: connection.descriptor, connectionID: connection.id))
    }

    /// Half-closes a connection whose last answer is sent and lets it linger; it stops counting
    /// against the limit.
    private func linger(_ connection: EventConnection, afterAnswer: Bool = false) {
        if connection.isServed {
            connection.isServed = false
            releaseSlot()
        }
        guard lingeringCount < Self.lingerCapacity else {
            close(connection)
            return
        }
        try? SystemCall.shutdown(connection.descriptor, Int32(SHUT_WR))
        connection.phase = .lingering
        lingeringCount += 1
        connection.lingersAfterAnswer = afterAnswer
        if afterAnswer { control.lingeringAfterAnswerCount.add(1, ordering: .relaxed) }
        connection.lingerDeadline = clock.monotonicNanoseconds() + lingerNanoseconds
        watch(connection)
        schedule(connection)
    }

    private func close(_ connection: EventConnection) {
        if connection.isServed {
            connection.isServed = false
            releaseSlot()
        }
        if case .lingering = connection.phase {
            lingeringCount -= 1
            if connection.lingersAfterAnswer { control.lingeringAfterAnswerCount.subtract(1, ordering: .relaxed) }
        }
        connections.removeValue(forKey: connection.descriptor)
        SystemCall.close(connection.descriptor)
    }

    /// A responder for a connection's later answer.
    func responder(for connection: EventConnection) -> Responder {
        Responder(mailbox: mailbox, descriptor: connection.descriptor, connectionID: connection.id)
    }

    /// Sends the later answers that have arrived, each on its connection if it still waits.
    private func deliverLetters() {
        for letter in mailbox.take() {
            guard let connection = connections[letter.descriptor], connection.id == letter.connectionID,
                connection.finishAwaiting(with: letter.response, self)
            else { continue }
            advance(connection)
        }
    }

    // MARK: - Timers

    /// Milliseconds until the soonest deadline, rounded up; `-1` without one.
    private func timeout() -> Int32 {
        let soonest = [timers.soonest, acceptPausedUntil].compactMap { $0 }.min()
        guard let soonest else { return -1 }
        let now = clock.monotonicNanoseconds()
        return soonest <= now ? 0 : Int32(min((soonest - now + 999_999) / 1_000_000, 3_600_000))
    }

    private func runTimers() {
        let now = clock.monotonicNanoseconds()
        if let paused = acceptPausedUntil, paused <= now { resumeAccepting() }
        while let entry = timers.popDue(now: now) {
            guard let connection = connections[entry.descriptor], connection.id == entry.connectionID else { continue }
            if connection.scheduledDeadline == entry.deadline { connection.scheduledDeadline = nil }
            expire(connection, now: now)
        }
    }

    private func expire(_ connection: EventConnection, now: UInt64) {
        switch connection.phase {
        case .lingering:
            if now >= connection.lingerDeadline {
                close(connection)
                return
            }
        case .delaying(let delayed):
            if now >= delayed.due {
                connection.finishDelay(self)
                advance(connection)
                return
            }
        case .awaiting:
            break
        case .reading:
            switch connection.expiry(now: now, readDeadline: readDeadline) {
            case .none: break
            case .sendStalled:
                close(connection)
                return
            case .idleTimedOut:
                linger(connection)
                return
            case .requestTimedOut(let start):
                connection.reject(.requestTimeout(seconds: configuration.readDeadline), start: start, self)
                advance(connection)
                return
            }
        }
        schedule(connection)
    }

    // MARK: - Shutdown

    /// Stops accepting and ends idle connections; requests in flight go on, and so does one
    /// whose first bytes have arrived but were not read yet (input wins over shutdown).
    private func stopServing() {
        if listening {
            listening = false
            epoll.remove(listener.descriptor)
        }
        let now = clock.monotonicNanoseconds()
        for connection in Array(connections.values) where connection.isIdle {
            guard connection.read(into: &scratch, now: now) == .open else {
                close(connection)
                continue
            }
            if connection.isIdle { linger(connection) } else { advance(connection) }
        }
    }

    /// Closes every connection at the end of the grace period. A lingering one first reads
    /// what has arrived: closing a socket with unread input sends a reset, and a reset makes
    /// the client drop the answers it has not read yet.
    private func closeEverything() {
        for connection in Array(connections.values) {
            if case .lingering = connection.phase {
                _ = connection.discard(into: &scratch)
            } else {
                try? SystemCall.shutdown(connection.descriptor, Int32(SHUT_RDWR))
            }
            close(connection)
        }
    }

    // MARK: - Shared by connections

    /// The `Date` value, formatted once per second.
    func date() -> String {
        let second = Int(clock.wallSeconds().rounded(.down))
        if second != cachedDate.second { cachedDate = (second, HTTPDate.string(secondsSince1970: second)) }
        return cachedDate.text
    }

    /// Notes one answered request for the access log.
    func log(method: String?, target: String?, version: String?, status: Int, bytes: Int, start: UInt64, peer: SocketAddress) {
        let now = clock.monotonicNanoseconds()
        let elapsed = now >= start ? now - start : 0
        logBatch.append(
            AccessLogEntry(
                time: clock.wallSeconds(), method: method, target: target, version: version, status: status, bytes: bytes,
                durationMilliseconds: Double(elapsed) / 1e6, peer: peer))
    }

    private func flushLog() {
        guard !logBatch.isEmpty else { return }
        logQueue.append(logBatch)
        logBatch.removeAll(keepingCapacity: true)
    }
}
