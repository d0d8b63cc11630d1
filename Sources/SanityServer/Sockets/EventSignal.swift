import Glibc

/// A one-way wake-up between threads that `poll` can wait on beside sockets: a non-blocking,
/// close-on-exec `socketpair(2)`; a byte written to one end makes the other end readable.
struct EventSignal: Sendable {
    /// The end to poll; readable once signalled, until ``reset()``.
    let descriptor: Int32
    private let writer: Int32

    /// Creates an unsignalled event.
    ///
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"socketpair"`.
    init() throws(ServerError) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        _ = try ends.withUnsafeMutableBufferPointer { (pair) throws(ServerError) -> Int32 in
            try SystemCall.run("socketpair") { socketpair(AF_UNIX, type, 0, pair.baseAddress) }
        }
        descriptor = ends[0]
        writer = ends[1]
    }

    /// Makes the event readable, waking every `poll` that waits on it.
    func signal() {
        // EAGAIN means the pair is full: it is readable already.
        _ = try? SystemCall.send(writer, [1], flags: Int32(MSG_DONTWAIT))
    }

    /// Makes the event unreadable again.
    func reset() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while true {
            let count = (try? SystemCall.receive(descriptor, into: &scratch, flags: Int32(MSG_DONTWAIT))) ?? 0
            if count < scratch.count { return }
        }
    }

    /// Closes both ends; no thread may use the event afterwards.
    func close() {
        SystemCall.close(descriptor)
        SystemCall.close(writer)
    }
}
