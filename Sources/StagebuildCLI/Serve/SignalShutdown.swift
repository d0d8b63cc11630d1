import Foundation
import SanityServer

/// SIGTERM and SIGINT for a long-running server command (`serve`, `exporter`), and SIGHUP for one
/// that reloads its config (`exporter`, as blackbox_exporter and nginx do; Debian's units send it
/// on `systemctl reload`): blocked in every thread, and taken by one thread with sigwait(2). No
/// handler runs in signal context, and a signal sent at any moment after ``install(onHangup:_:)``,
/// even before the server prints its address, stays pending until that thread takes it: never
/// lost. One thread and one mask for all of them: a waiting thread started before another
/// signal was blocked would take that signal with its default action (a SIGHUP ends a process).
enum SignalShutdown {
    /// Blocks the signals and starts the thread that waits for them.
    ///
    /// Call before the server starts any thread: threads inherit the signal mask.
    ///
    /// - Parameters:
    ///   - onHangup: Runs on the waiting thread for each SIGHUP (signals that arrive while it
    ///     runs are one); `nil` leaves SIGHUP's default action.
    ///   - shutdown: Runs once, on the waiting thread, when SIGTERM or SIGINT arrives.
    static func install(onHangup: (@Sendable () -> Void)? = nil, _ shutdown: @escaping @Sendable () -> Void) {
        // A log reader that goes away (`2> >(head -1)`) must not end the server: a write to a
        // closed pipe fails with EPIPE instead, and the line is dropped (nginx does the same).
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        if onHangup != nil { sigaddset(&signals, SIGHUP) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            try DetachedThread.start { [signals] in
                var set = signals
                var received: Int32 = 0
                while sigwait(&set, &received) == 0 {
                    if received == SIGHUP, let onHangup {
                        onHangup()
                        continue
                    }
                    shutdown()
                    return
                }
            }
        } catch {
            // No thread to take them: the signals keep their default action and end the server.
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }
}
