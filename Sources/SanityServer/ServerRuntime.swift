import Glibc

/// What a running server is made of: the listener, one ``EventLoop`` per thread, what they
/// share, and the access log's queue.
final class ServerRuntime: Sendable {
    /// The listening socket, shared by every loop.
    let listener: ListeningSocket
    let loops: [EventLoop]
    let control: EventLoop.Control
    let logQueue: AccessLogQueue

    init(listener: ListeningSocket, loops: [EventLoop], control: EventLoop.Control, logQueue: AccessLogQueue) {
        self.listener = listener
        self.loops = loops
        self.control = control
        self.logQueue = logQueue
    }

    /// Closes the listener and, once the loops that ran have returned, their signals.
    ///
    /// - Parameters:
    ///   - loopsEnded: Whether every loop that ran has returned from ``EventLoop/run()``.
    ///   - runningCount: How many loops, from the first, were started.
    func release(loopsEnded: Bool, runningCount: Int) {
        listener.close()
        guard loopsEnded else { return }
        loops[..<runningCount].forEach { $0.release() }
        control.wakeSignals.forEach { $0.close() }
    }

    /// Asks every loop to read the new stage.
    func wakeLoops() {
        loops.forEach { $0.wake() }
    }

    /// Waits until the loops that were started have returned, at most until the deadline.
    ///
    /// - Parameters:
    ///   - started: How many loops, from the first, were started.
    ///   - milliseconds: The longest wait.
    /// - Returns: Whether all returned.
    func waitForLoops(started: Int, milliseconds: Int32) -> Bool {
        var entries = loops[..<started].map { pollfd(fd: $0.finished.descriptor, events: Int16(POLLIN), revents: 0) }
        let clock = ServerClock.system
        let deadline = clock.monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
        while true {
            for index in entries.indices { entries[index].revents = 0 }
            _ = try? SystemCall.poll(&entries) {
                let now = clock.monotonicNanoseconds()
                return deadline <= now ? 0 : Int32((deadline - now) / 1_000_000 + 1)
            }
            if entries.allSatisfy({ $0.revents != 0 }) { return true }
            if clock.monotonicNanoseconds() >= deadline { return false }
            // Stop polling the loops that are done: their signal stays readable.
            entries = entries.filter { $0.revents == 0 }
        }
    }
}
