import Foundation
import SanityServer

/// SIGHUP read on a thread of its own, for a server that reloads its config on it, as
/// blackbox_exporter and nginx do (Debian's units send it on `systemctl reload`).
enum SignalReload {
    /// Blocks SIGHUP and starts the thread that runs `reload` for each one.
    ///
    /// Call before the server starts any thread: threads inherit the signal mask.
    ///
    /// - Parameter reload: Runs on the waiting thread, once per signal; signals that arrive
    ///   while it runs are one signal.
    static func install(_ reload: @escaping @Sendable () -> Void) {
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &hangup, nil)
        do {
            try DetachedThread.start { [hangup] in
                var set = hangup
                var received: Int32 = 0
                while sigwait(&set, &received) == 0 { reload() }
            }
        } catch {
            // No thread to take it: SIGHUP keeps its default action, as before.
            pthread_sigmask(SIG_UNBLOCK, &hangup, nil)
        }
    }
}
