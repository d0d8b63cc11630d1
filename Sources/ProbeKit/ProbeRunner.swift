import Dispatch
import Foundation
import Synchronization

/// Runs many calls with a bounded number of threads, an optional overall deadline, and
/// cancellation: when cancelled (``cancel(_:)``, or the deadline), calls in flight end promptly
/// and calls not yet started are reported ``ProbeOutcome/cancelled(_:)`` without being made.
///
/// Each worker thread blocks in one call at a time (each libcurl ``EasyHandle`` drives its own
/// multi handle), so `concurrency` threads make at most `concurrency` calls at once. Results
/// come back in the order of the requests, whatever order the calls end in. A runner runs once:
/// its cancel switch stays on.
public final class ProbeRunner: Sendable {
    /// The engine that makes each call.
    public let engine: any ProbeEngine
    /// The most calls in flight at once, at least 1.
    public let concurrency: Int
    /// The overall limit in seconds, or `nil` for none.
    public let deadline: Double?
    /// The run's cancel switch.
    public let cancellation = ProbeCancellation()

    /// A runner.
    ///
    /// - Parameters:
    ///   - engine: the engine.
    ///   - concurrency: the most calls at once (`--concurrency`, default 8); values below 1 count as 1.
    ///   - deadline: the overall limit in seconds (`--deadline`), or `nil`.
    public init(engine: any ProbeEngine, concurrency: Int = 8, deadline: Double? = nil) {
        self.engine = engine
        self.concurrency = max(1, concurrency)
        self.deadline = deadline
    }

    /// Cancels the run: every call in flight ends with this cause, no further call starts.
    /// Safe from any thread, e.g. a SIGINT handler's queue; the first cause is kept.
    ///
    /// - Parameter cause: why.
    public func cancel(_ cause: CancellationCause = .requested) {
        cancellation.cancel(cause)
    }

    /// Makes the calls and waits for all of them.
    ///
    /// - Parameters:
    ///   - requests: the calls, in report order.
    ///   - progress: called as each call ends, on the worker's thread (the calling thread when
    ///     one worker is enough).
    /// - Returns: one result per request, in the same order.
    public func run(_ requests: [ProbeRequest], progress: (@Sendable (ProbeProgress) -> Void)? = nil) -> [ProbeResult] {
        guard !requests.isEmpty else { return [] }
        let state = RunState(count: requests.count)
        var timer: DispatchWorkItem?
        if let deadline {
            let item = DispatchWorkItem { [cancellation] in cancellation.cancel(.deadline(seconds: deadline)) }
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: item)
            timer = item
        }
        let engine = self.engine
        let cancellation = self.cancellation
        let workers = min(concurrency, requests.count)
        if workers == 1 {
            // One worker runs on the calling thread: starting a thread costs a single call (the
            // common case) a measurable share of its whole run.
            Self.work(requests, engine: engine, cancellation: cancellation, state: state, progress: progress)
        } else {
            let group = DispatchGroup()
            for _ in 0..<workers {
                group.enter()
                let thread = Thread {
                    Self.work(requests, engine: engine, cancellation: cancellation, state: state, progress: progress)
                    group.leave()
                }
                thread.name = "stagebuild-probe"
                thread.start()
            }
            group.wait()
        }
        timer?.cancel()
        return state.results.withLock { $0.compactMap { $0 } }
    }

    /// One worker: takes the next request until none is left.
    private static func work(
        _ requests: [ProbeRequest], engine: any ProbeEngine, cancellation: ProbeCancellation, state: RunState,
        progress: (@Sendable (ProbeProgress) -> Void)?
    ) {
        // Results stay with the worker until it ends: one lock per worker, not per call.
        var finished: [(index: Int, result: ProbeResult)] = []
        defer { state.results.withLock { results in for call in finished { results[call.index] = call.result } } }
        while true {
            let index = state.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < requests.count else { return }
            let request = requests[index]
            let result: ProbeResult
            if let cause = cancellation.cause {
                result = .cancelled(request, engine: engine.name, route: nil, cause: cause, inFlight: false)
            } else {
                result = engine.probe(request, cancellation: cancellation)
            }
            finished.append((index, result))
            let completed = state.completed.wrappingAdd(1, ordering: .relaxed).newValue
            progress?(ProbeProgress(completed: completed, total: requests.count, result: result))
        }
    }
}

/// The shared state of one run's workers.
private final class RunState: Sendable {
    let results: Mutex<[ProbeResult?]>
    let next = Atomic<Int>(0)
    let completed = Atomic<Int>(0)

    init(count: Int) {
        results = Mutex(Array(repeating: nil, count: count))
    }
}
