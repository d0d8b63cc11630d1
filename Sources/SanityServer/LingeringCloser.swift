import Glibc
import Synchronization

/// Closes connections the server ends without losing its last response: after `shutdown(SHUT_WR)`
/// it reads and discards what the client still sends until the client closes or a short time
/// passes, so the kernel does not answer unread input with a reset that would destroy the
/// response in flight (RFC 9112 section 9.6, "tear-down"; nginx's `lingering_close`).
///
/// One thread serves every lingering socket with `poll`, so connection threads end at once.
final class LingeringCloser: Sendable {
    /// How long a socket lingers at most, in nanoseconds.
    let lingerNanoseconds: UInt64
    /// Bytes read and discarded per socket before it is closed anyway.
    static let maxDiscardedBytes = 1 << 20
    /// Sockets lingering at once; beyond it a socket is closed at once.
    static let capacity = 4096

    private struct Entry: Sendable {
        var descriptor: Int32
        var deadline: UInt64
        var discarded = 0
    }

    private struct State: Sendable {
        var incoming: [Entry] = []
        var lingeringCount = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let wake: EventSignal
    private let clock: ServerClock
    private let finished: EventSignal

    /// Creates the closer; ``run()`` must then be called on a thread of its own.
    ///
    /// - Parameters:
    ///   - lingerSeconds: The longest a socket lingers, in seconds.
    ///   - clock: The monotonic clock for deadlines.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` when the wake-up socket pair cannot be made.
    init(lingerSeconds: Double, clock: ServerClock) throws(ServerError) {
        lingerNanoseconds = UInt64(lingerSeconds * 1e9)
        self.clock = clock
        wake = try EventSignal()
        do throws(ServerError) {
            finished = try EventSignal()
        } catch {
            wake.close()
            throw error
        }
    }

    /// Half-closes a socket and hands it over; the closer owns it from now on.
    ///
    /// - Parameters:
    ///   - descriptor: A connected socket whose response has been sent.
    func close(_ descriptor: Int32) {
        try? SystemCall.shutdown(descriptor, Int32(SHUT_WR))
        // Signalling under the lock: once stop() has set `stopping`, no one touches `wake` again.
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping, state.lingeringCount < Self.capacity else { return false }
            state.lingeringCount += 1
            state.incoming.append(Entry(descriptor: descriptor, deadline: clock.monotonicNanoseconds() + lingerNanoseconds))
            wake.signal()
            return true
        }
        if !accepted { SystemCall.close(descriptor) }
    }

    /// How many sockets are lingering now.
    var lingeringCount: Int { state.withLock { $0.lingeringCount } }

    /// Serves lingering sockets until ``stop()``; then closes them all and returns.
    func run() {
        var entries: [Entry] = []
        var scratch = [UInt8](repeating: 0, count: 65536)
        while true {
            let (incoming, stopping) = state.withLock { state in
                defer { state.incoming.removeAll() }
                return (state.incoming, state.stopping)
            }
            entries.append(contentsOf: incoming)
            if stopping { break }
            var polled = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            polled.append(contentsOf: entries.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) })
            let nearest = entries.map(\.deadline).min()
            _ = try? SystemCall.poll(&polled) {
                guard let nearest else { return -1 }
                let now = clock.monotonicNanoseconds()
                return nearest <= now ? 0 : Int32(min((nearest - now) / 1_000_000 + 1, 60_000))
            }
            if polled[0].revents != 0 { wake.reset() }
            let now = clock.monotonicNanoseconds()
            var kept: [Entry] = []
            kept.reserveCapacity(entries.count)
            for (index, var entry) in entries.enumerated() {
                var done = now >= entry.deadline
                if !done && polled[index + 1].revents != 0 {
                    done = discard(&entry, into: &scratch)
                }
                if done { SystemCall.close(entry.descriptor) } else { kept.append(entry) }
            }
            let closedCount = entries.count - kept.count
            if closedCount > 0 { state.withLock { $0.lingeringCount -= closedCount } }
            entries = kept
        }
        for entry in entries { SystemCall.close(entry.descriptor) }
        state.withLock { $0.lingeringCount = 0 }
        finished.signal()
    }

    /// Reads what is there; `true` when the socket is done: closed by the peer, failed, or too chatty.
    private func discard(_ entry: inout Entry, into scratch: inout [UInt8]) -> Bool {
        while true {
            let count: Int
            do throws(ServerError) {
                count = try SystemCall.receive(entry.descriptor, into: &scratch, flags: Int32(MSG_DONTWAIT))
            } catch {
                if case .systemCall(_, let code) = error, code == EAGAIN || code == EWOULDBLOCK { return false }
                return true
            }
            if count == 0 { return true }
            entry.discarded += count
            if entry.discarded > Self.maxDiscardedBytes { return true }
        }
    }

    /// Closes every lingering socket and ends ``run()``.
    ///
    /// - Parameters:
    ///   - timeoutMilliseconds: How long to wait for ``run()`` to finish.
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
