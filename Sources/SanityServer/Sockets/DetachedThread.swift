import Glibc

/// Starts a detached POSIX thread that runs a closure: the server's event loops and access-log
/// writer, and the CLI's signal waiters. A bare pthread: Foundation's `Thread` sets up its
/// class and a thread dictionary first, which costs a one-call probe a share of its start-up.
public enum DetachedThread {
    /// Stack size of every such thread, in bytes; none recurses deeply.
    static let stackBytes = 512 * 1024

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread.
    ///
    /// - Parameters:
    ///   - body: What the thread runs; the thread ends when it returns.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"pthread_create"`, e.g. with `EAGAIN`
    ///   when the process has too many threads.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(ServerError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw .systemCall(call: "pthread_create", errno: result)
        }
    }
}
