import Glibc
import Synchronization

/// Takes access-log entries from the event loops and hands them, in the order they were
/// queued, to the server's `accessLog` closure on a thread of its own, so writing a log line
/// never holds up a connection.
final class AccessLogQueue: Sendable {
    private struct State {
        var pending: [AccessLogEntry] = []
        var stopping = false
        /// Entries dropped since the last batch because the log could not keep up.
        var dropped = 0
    }

    /// Entries waiting at most: when whatever reads the log stops reading, the server keeps
    /// serving and drops the lines beyond this, rather than growing without bound.
    static let capacity = 65_536

    private let state = Mutex(State())
    private let wake: EventSignal
    private let finished: EventSignal
    private let write: @Sendable ([AccessLogEntry]) -> Void
    private let reportDropped: @Sendable (Int) -> Void

    /// Creates the queue; ``run()`` must then be called on a thread of its own.
    ///
    /// - Parameter write: Called with each batch of entries, in order, on the queue's thread only.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` when its wake-up sockets cannot be made.
    init(
        write: @escaping @Sendable ([AccessLogEntry]) -> Void, dropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(ServerError) {
        self.write = write
        self.reportDropped = dropped
        wake = try EventSignal()
        do throws(ServerError) {
            finished = try EventSignal()
        } catch {
            wake.close()
            throw error
        }
    }

    /// Queues entries; cheap enough for an event loop to call once per turn.
    func append(_ entries: [AccessLogEntry]) {
        guard !entries.isEmpty else { return }
        let wasEmpty = state.withLock { state -> Bool in
            let wasEmpty = state.pending.isEmpty
            let room = max(Self.capacity - state.pending.count, 0)
            state.pending.append(contentsOf: entries.prefix(room))
            state.dropped += max(entries.count - room, 0)
            return wasEmpty
        }
        if wasEmpty { wake.signal() }
    }

    /// Writes entries as they come until ``stop(timeoutMilliseconds:)``, then what is left.
    func run() {
        var entries = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            let (batch, stopping, dropped) = state.withLock { state in
                defer {
                    state.pending.removeAll(keepingCapacity: true)
                    state.dropped = 0
                }
                return (state.pending, state.stopping, state.dropped)
            }
            if dropped > 0 { reportDropped(dropped) }
            if !batch.isEmpty { write(batch) }
            if stopping { break }
            entries[0].revents = 0
            _ = try? SystemCall.poll(&entries) { -1 }
            wake.reset()
        }
        finished.signal()
    }

    /// Closes the wake-up sockets of a queue whose ``run()`` never started.
    func discard() {
        wake.close()
        finished.close()
    }

    /// Writes what is queued and ends ``run()``.
    ///
    /// - Parameter timeoutMilliseconds: How long to wait for the last entries to be written.
    /// - Returns: Whether ``run()`` finished in time, so the wake-up sockets could be closed.
    func stop(timeoutMilliseconds: Int32) -> Bool {
        state.withLock { $0.stopping = true }
        wake.signal()
        var entries = [pollfd(fd: finished.descriptor, events: Int16(POLLIN), revents: 0)]
        let ready = (try? SystemCall.poll(&entries) { timeoutMilliseconds }) ?? 0
        guard ready > 0 else { return false }
        wake.close()
        finished.close()
        return true
    }
}
