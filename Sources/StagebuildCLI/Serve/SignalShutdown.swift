import Foundation
import SanityServer

/// SIGTERM and SIGINT for a long-running server command (`serve`, `exporter`): blocked in every
/// thread, and taken by one thread with sigwait(2), which then runs the shutdown. No handler
/// runs in signal context, and a signal sent at any moment after ``install(_:)``, even before
/// the server prints its address, stays pending until that thread takes it: never lost.
enum SignalShutdown {
    /// Blocks the signals and starts the thread that waits for the first.
    ///
    /// Call before the server starts any thread: threads inherit the signal mask.
    ///
    /// - Parameter shutdown: Runs once, on the waiting thread, when a signal arrives.
    static func install(_ shutdown: @escaping @Sendable () -> Void) {
        // A log reader that goes away (`2> >(head -1)`) must not end the server: a write to a
        // closed pipe fails with EPIPE instead, and the line is dropped (nginx does the same).
        signal(SIGPIPE, SIG_IGN)
        var termination = sigset_t()
        sigemptyset(&termination)
        sigaddset(&termination, SIGTERM)
        sigaddset(&termination, SIGINT)
        pthread_sigmask(SIG_BLOCK, &termination, nil)
        do {
            try DetachedThread.start { [termination] in
                var set = termination
                var received: Int32 = 0
                sigwait(&set, &received)
                shutdown()
            }
        } catch {
            // No thread to take them: the signals keep their default action and end the server.
            pthread_sigmask(SIG_UNBLOCK, &termination, nil)
        }
    }
}
