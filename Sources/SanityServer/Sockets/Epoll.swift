import CEpoll
import Glibc

/// One `epoll(7)` instance: the set of descriptors an event loop waits on.
///
/// Level-triggered (the default): a descriptor stays ready until its bytes are read or its send
/// buffer has room, so a loop that stops early for fairness loses nothing.
struct Epoll {
    /// The epoll descriptor, close-on-exec.
    let descriptor: Int32

    /// Creates an empty set.
    ///
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"epoll_create1"`.
    init() throws(ServerError) {
        descriptor = try SystemCall.run("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    /// Readable (`EPOLLIN`), and the peer's half-close or a reset (`EPOLLRDHUP`).
    static let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    /// Room in the send buffer (`EPOLLOUT`).
    static let writable = EPOLLOUT.rawValue

    /// Adds a descriptor.
    ///
    /// - Parameters:
    ///   - fd: The descriptor; its number comes back in every event.
    ///   - events: `EPOLL*` bits, e.g. ``readable``.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"epoll_ctl"`.
    func add(_ fd: Int32, events: UInt32) throws(ServerError) {
        try control(EPOLL_CTL_ADD, fd, events)
    }

    /// Changes the events a descriptor is watched for.
    ///
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"epoll_ctl"`.
    func modify(_ fd: Int32, events: UInt32) throws(ServerError) {
        try control(EPOLL_CTL_MOD, fd, events)
    }

    /// Stops watching a descriptor (closing it does so too).
    func remove(_ fd: Int32) {
        try? control(EPOLL_CTL_DEL, fd, 0)
    }

    private func control(_ operation: Int32, _ fd: Int32, _ events: UInt32) throws(ServerError) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: fd))
        _ = try SystemCall.run("epoll_ctl") { epoll_ctl(descriptor, operation, fd, &event) }
    }

    /// Waits for events.
    ///
    /// - Parameters:
    ///   - events: Filled from the start; its count is the most returned at once.
    ///   - timeoutMilliseconds: `-1` waits without limit; `0` only looks.
    /// - Returns: How many entries of `events` were filled; `0` when the time ran out or a
    ///   signal interrupted the wait (the caller computes its timers again either way).
    func wait(into events: inout [epoll_event], timeoutMilliseconds: Int32) -> Int {
        let capacity = Int32(events.count)
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(descriptor, buffer.baseAddress, capacity, timeoutMilliseconds)
        }
        return max(Int(count), 0)
    }

    /// Closes the set.
    func close() {
        SystemCall.close(descriptor)
    }
}
