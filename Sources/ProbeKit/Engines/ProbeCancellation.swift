import Curl
import Synchronization

/// A run's cancel switch: once on, it stays on, remembers why, stops every libcurl transfer in
/// flight (through ``transfers``) and calls the handlers engines registered (a URLSession task's
/// `cancel()`). Safe from any thread, a signal handler's dispatch queue included.
public final class ProbeCancellation: Sendable {
    /// The switch libcurl transfers watch (`curl_multi_wakeup` ends their wait at once).
    public let transfers = TransferCancellation()
    private let state = Mutex<State>(State())
    /// Turned on with the cause: reading the switch takes no lock while it is off, as every
    /// call of a run reads it.
    private let on = Atomic<Bool>(false)

    private struct State {
        var cause: CancellationCause?
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    /// A switch that is off.
    public init() {}

    /// Why the switch was turned on, or `nil` while it is off.
    public var cause: CancellationCause? {
        guard on.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.cause }
    }

    /// Whether the switch is on.
    public var isCancelled: Bool { cause != nil }

    /// Turns the switch on; the first cause is kept, later calls change nothing.
    ///
    /// - Parameter cause: why.
    public func cancel(_ cause: CancellationCause) {
        let (first, handlers) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard state.cause == nil else { return (false, []) }
            state.cause = cause
            on.store(true, ordering: .releasing)
            let handlers = Array(state.handlers.values)
            state.handlers.removeAll()
            return (true, handlers)
        }
        guard first else { return }
        transfers.cancel()
        for handler in handlers { handler() }
    }

    /// Calls `handler` once when the switch turns on, at once if it already is.
    ///
    /// - Parameter handler: what to do, e.g. cancel a task; runs on the cancelling thread.
    /// - Returns: a token for ``removeHandler(_:)``.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let token = state.withLock { state -> Int? in
            guard state.cause == nil else { return nil }
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        guard let token else {
            handler()
            return 0
        }
        return token
    }

    /// Forgets a handler (the work it would stop has ended).
    ///
    /// - Parameter token: what ``onCancel(_:)`` returned.
    public func removeHandler(_ token: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }
}
