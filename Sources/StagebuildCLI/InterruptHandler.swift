import Foundation
import SanityServer
import Synchronization

/// Takes SIGINT, SIGTERM and SIGHUP for a command that ends its work itself when one arrives
/// (probe cancels its runner, so the results of calls that already ended are still printed;
/// verify stops its builder and removes what it made). The signals are blocked before any other thread starts (threads inherit the mask:
/// the workers and libcurl's resolver threads) and one thread takes them with sigwait(2): no
/// handler runs in signal context. Dispatch's signal source did the same with two threads of
/// its own, which cost a single call about 2 ms of CPU (bench/probe/run).
final class InterruptHandler: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts taking the signals.
    ///
    /// - Parameter onSignal: Called on the waiting thread with each signal's number.
    init(onSignal: @escaping @Sendable (Int32) -> Void) {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            try DetachedThread.start { [self] in
                var signals = Self.signals
                var received: Int32 = 0
                while sigwait(&signals, &received) == 0, !stopping.load(ordering: .acquiring) {
                    onSignal(received)
                }
                ended.signal()
            }
        } catch {
            // No thread to take them: the signals keep their default action, which ends the run.
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            stopping.store(true, ordering: .releasing)
            ended.signal()
        }
    }

    /// Ends the waiting thread, then gives both signals their default action back: a signal
    /// while the report is written (to a pipe nobody reads, say) ends the process.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Every thread blocks SIGINT: the waiting thread takes this one and sees `stopping`.
        kill(getpid(), SIGINT)
        ended.wait()
        var signals = Self.signals
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }
}
