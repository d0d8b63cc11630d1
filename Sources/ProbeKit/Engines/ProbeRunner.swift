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
    /// When the deadline's clock started: the command's start, so that reading a million
    /// targets counts against it too.
    public let start: ContinuousClock.Instant
    /// The run's cancel switch.
    public let cancellation = ProbeCancellation()

    /// A runner.
    ///
    /// - Parameters:
    ///   - engine: the engine.
    ///   - concurrency: the most calls at once (`--concurrency`, default 8); values below 1 count as 1.
    ///   - deadline: the overall limit in seconds (`--deadline`), or `nil`.
    ///   - start: when the deadline's clock started; now by default.
    public init(
        engine: any ProbeEngine, concurrency: Int = 8, deadline: Double? = nil,
        start: ContinuousClock.Instant = .now
    ) {
        self.engine = engine
        self.concurrency = max(1, concurrency)
        self.deadline = deadline
        self.start = start
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
        let collected = Mutex<[ProbeResult]>([])
        run(
            source: ProbeRequestList(requests: requests),
            notStarted: { [engine] indices, cause in
                collected.withLock { results in
                    for index in indices {
                        results.append(
                            .cancelled(requests[index], engine: engine.name, route: nil, cause: cause, inFlight: false))
                    }
                }
            },
            progress: progress, deliver: { result in collected.withLock { $0.append(result) } })
        return collected.withLock { $0 }
    }

    /// Makes the calls of `source`, each request made only when its turn comes, and hands every
    /// result to `deliver` in request order as soon as it and all before it have ended: memory
    /// grows with `concurrency`, not with the number of calls. A worker whose next call is not
    /// known yet waits for the source. Once the run is cancelled, the calls not yet taken are not
    /// made: `notStarted` gets their indices, once, on the calling thread, after every other
    /// result was delivered (a run cut short may leave a million: the caller reports them in
    /// bulk).
    ///
    /// - Parameters:
    ///   - source: the calls, in report order.
    ///   - notStarted: the indices of the calls the run never started, with the cause; not
    ///     called when every call started.
    ///   - progress: called as each call that started ends, on its worker's thread.
    ///   - deliver: called with each result in request order, never concurrently.
    public func run(
        source: some ProbeRequestSource,
        notStarted: @escaping @Sendable (Range<Int>, CancellationCause) -> Void,
        progress: (@Sendable (ProbeProgress) -> Void)? = nil, deliver: @escaping @Sendable (ProbeResult) -> Void
    ) {
        // Whether it may grow is read before its count: read after, a reader that took its last
        // line in between would leave a count of 0 that no longer grows, and the run would make
        // none of the calls it then holds.
        let mayGrow = source.mayGrow
        let known = source.count
        guard known > 0 || mayGrow else { return }
        let state = RunState(deliver: deliver)
        var timer: DispatchWorkItem?
        if let deadline {
            let item = DispatchWorkItem { [cancellation] in cancellation.cancel(.deadline(seconds: deadline)) }
            let left = max(0, deadline - (ContinuousClock.now - start).inSeconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + left, execute: item)
            timer = item
        }
        let work = Work(engine: engine, cancellation: cancellation, state: state, source: source, progress: progress)
        // A list known before the run needs no more workers than calls; a growing one may.
        let workers = mayGrow ? concurrency : min(concurrency, known)
        if workers == 1 {
            // One worker runs on the calling thread: starting a thread costs a single call (the
            // common case) a measurable share of its whole run.
            work.run()
        } else {
            let group = DispatchGroup()
            for _ in 0..<workers {
                group.enter()
                let thread = Thread {
                    work.run()
                    group.leave()
                }
                thread.name = "stagebuild-probe"
                thread.start()
            }
            group.wait()
        }
        timer?.cancel()
        // Every index below `taken` has been delivered; the rest never started.
        let count = source.count
        let taken = min(state.next.load(ordering: .acquiring), count)
        if taken < count, let cause = cancellation.cause {
            notStarted(taken..<count, cause)
        }
    }
}

/// Why a call's request could not be made: the record to report in its place.
public struct ProbeResultFailure: Error, Sendable {
    /// The record, e.g. a failure naming the target text that did not parse.
    public var result: ProbeResult

    /// A failure.
    ///
    /// - Parameter result: the record to report.
    public init(result: ProbeResult) {
        self.result = result
    }
}

/// One run's workers: each takes the next index until the source has no call there or the run
/// is cancelled.
private struct Work<Source: ProbeRequestSource>: Sendable {
    let engine: any ProbeEngine
    let cancellation: ProbeCancellation
    let state: RunState
    let source: Source
    let progress: (@Sendable (ProbeProgress) -> Void)?

    func run() {
        // A cancelled run takes no further index: those calls are reported as not started.
        while cancellation.cause == nil {
            let index = state.next.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
            guard let made = source.request(at: index, cancellation: cancellation) else { return }
            let result: ProbeResult
            switch made {
            case .success(let request): result = engine.probe(request, cancellation: cancellation)
            case .failure(let failure): result = failure.result
            }
            let completed = state.completed.wrappingAdd(1, ordering: .relaxed).newValue
            progress?(ProbeProgress(completed: completed, total: source.count, result: result))
            state.finish(index, result)
        }
    }
}

/// The shared state of one run's workers: the next index to take, and the results that
/// ended before an earlier one, held until they can be delivered in order.
private final class RunState: Sendable {
    let next = Atomic<Int>(0)
    let completed = Atomic<Int>(0)
    private let pending = Mutex<(nextToDeliver: Int, waiting: [Int: ProbeResult])>((0, [:]))
    private let deliver: @Sendable (ProbeResult) -> Void

    init(deliver: @escaping @Sendable (ProbeResult) -> Void) {
        self.deliver = deliver
    }

    /// Delivers `result` and every waiting one after it, in order, once all before it are out.
    func finish(_ index: Int, _ result: ProbeResult) {
        pending.withLock { state in
            state.waiting[index] = result
            while let next = state.waiting.removeValue(forKey: state.nextToDeliver) {
                deliver(next)
                state.nextToDeliver += 1
            }
        }
    }
}
