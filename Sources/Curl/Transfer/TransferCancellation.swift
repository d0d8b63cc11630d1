import CCurl
import Synchronization

/// A switch that cancels transfers from any thread; once on, it stays on.
///
/// Hand the same value to any number of ``EasyHandle/perform(maxBodyBytes:maxDebugLogBytes:cancellation:)``
/// calls, on any threads, and call ``cancel()`` from another (a SIGINT handler's thread, an
/// overall deadline). Every transfer in flight ends within milliseconds with
/// ``CurlCode/abortedByCallback``; a transfer started after ``cancel()`` ends before it
/// connects. Two mechanisms make that prompt: libcurl's `CURLOPT_XFERINFOFUNCTION` callback
/// reads the flag and returns non-zero (libcurl then aborts with `CURLE_ABORTED_BY_CALLBACK`),
/// and `curl_multi_wakeup` interrupts a transfer waiting in `curl_multi_poll` for network
/// activity, so the flag is read even when nothing arrives (a peer that never answers).
public final class TransferCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// The `CURLM*` of every transfer in flight with this switch, as address bits.
    private let waiting = Mutex<Set<UInt>>([])

    /// A switch that is off.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// Turns the switch on and wakes every transfer in flight with it (`curl_multi_wakeup`).
    ///
    /// Safe from any thread, any number of times.
    public func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        waiting.withLock { multis in
            for bits in multis {
                if let multi = UnsafeMutableRawPointer(bitPattern: bits) {
                    _ = curl_multi_wakeup(multi)
                }
            }
        }
    }

    /// Registers a multi handle to wake on ``cancel()``; call before reading ``isCancelled`` in
    /// the transfer loop, so a cancel can never slip between the check and the wait.
    func register(multi: UnsafeMutableRawPointer) {
        _ = waiting.withLock { $0.insert(UInt(bitPattern: multi)) }
    }

    /// Unregisters a multi handle; call before `curl_multi_cleanup`.
    func unregister(multi: UnsafeMutableRawPointer) {
        _ = waiting.withLock { $0.remove(UInt(bitPattern: multi)) }
    }
}
