import Foundation
import SanityServer
import Synchronization

/// Takes SIGINT, SIGTERM and SIGHUP for a command that ends its work itself when one arrives
/// (probe cancels its runner, so the results of calls that already ended are still printed;
/// verify stops its builder and removes what it made). The signals are blocked in the thread
/// that makes the handler and in every thread started after it (threads inherit the mask: the
/// workers and libcurl's resolver threads), and one thread takes them with sigwait(2): no
/// handler runs in signal context. A thread started before (Dispatch's, for a child process
/// already run) would take a signal sent to the process with its default action, so the
/// handler is made before any such thread, and its own wake-up goes to its thread alone.
/// Dispatch's signal source did the same with two threads of its own, which cost a single call
/// about 2 ms of CPU (bench/probe/run).
final class InterruptHandler: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    /// The waiting thread, once it runs.
    private let waiter = Mutex<pthread_t?>(nil)

    /// Starts taking the signals.
    ///
    /// - Parameter onSignal: Called on the waiting thread with each signal's number.
    init(onSignal: @escaping @Sendable (Int32) -> Void) {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let running = DispatchSemaphore(value: 0)
        do {
            try DetachedThread.start { [self] in
                waiter.withLock { $0 = pthread_self() }
                running.signal()
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
            return
        }
        running.wait()
    }

    /// Ends the waiting thread, then gives both signals their default action back: a signal
    /// while the report is written (to a pipe nobody reads, say) ends the process.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // The waiting thread takes this one and sees `stopping`; sent to the process, a thread
        // that does not block SIGINT could take it instead and end the process.
        if let thread = waiter.withLock({ $0 }) { pthread_kill(thread, SIGINT) }
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
