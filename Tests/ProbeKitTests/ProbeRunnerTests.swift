import Foundation
import ProbeKit
import Synchronization
import Testing

/// Bounded concurrency, request order, the overall deadline and cancellation, with an engine
/// whose calls take a fixed time and one real libcurl transfer to a peer that never answers.
@Suite struct ProbeRunnerTests {
    /// Calls that take `delay` unless cancelled, counting how many run at once.
    final class SleepingEngine: ProbeEngine {
        let name = "sleeping"
        let settings = ProbeSettings()
        let delay: Duration
        let inFlight = Atomic<Int>(0)
        let mostInFlight = Atomic<Int>(0)

        init(delay: Duration) {
            self.delay = delay
        }

        func probe(_ request: ProbeRequest, cancellation: ProbeCancellation) -> ProbeResult {
            let now = inFlight.wrappingAdd(1, ordering: .relaxed).newValue
            _ = mostInFlight.max(now, ordering: .relaxed)
            defer { inFlight.wrappingSubtract(1, ordering: .relaxed) }
            let clock = ContinuousClock()
            let end = clock.now + delay
            while clock.now < end {
                if let cause = cancellation.cause {
                    return .cancelled(request, engine: name, route: nil, cause: cause, inFlight: true)
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return ProbeResult(target: request.target, method: request.method, engine: name, route: nil, outcome: .succeeded)
        }
    }

    private func requests(_ count: Int) throws -> [ProbeRequest] {
        try (0..<count).map { try ProbeRequest(parsing: "http://host\($0).test/") }
    }

    @Test func boundsConcurrencyAndKeepsRequestOrder() throws {
        let engine = SleepingEngine(delay: .milliseconds(40))
        let runner = ProbeRunner(engine: engine, concurrency: 4)
        let progress = Atomic<Int>(0)
        let results = runner.run(try requests(16)) { _ in progress.wrappingAdd(1, ordering: .relaxed) }
        #expect(results.map(\.target) == (0..<16).map { "http://host\($0).test/" })
        #expect(results.allSatisfy { $0.outcome == .succeeded })
        #expect(engine.mostInFlight.load(ordering: .relaxed) == 4)
        #expect(progress.load(ordering: .relaxed) == 16)
    }

    @Test func theDefaultConcurrencyIsEight() throws {
        let engine = SleepingEngine(delay: .milliseconds(30))
        _ = ProbeRunner(engine: engine).run(try requests(20))
        #expect(engine.mostInFlight.load(ordering: .relaxed) == 8)
    }

    @Test func deadlineCancelsCallsInFlightAndNotStartedPromptly() throws {
        let runner = ProbeRunner(engine: SleepingEngine(delay: .seconds(30)), concurrency: 2, deadline: 0.3)
        let clock = ContinuousClock()
        let start = clock.now
        let results = runner.run(try requests(6))
        #expect(clock.now - start < .seconds(3))
        #expect(results.count == 6)
        #expect(results.allSatisfy { $0.outcome == .cancelled(.deadline(seconds: 0.3)) })
        #expect(results.filter { $0.message?.hasPrefix("cancelled in flight") == true }.count == 2)
        #expect(results.filter { $0.message?.hasPrefix("not started") == true }.count == 4)
        #expect(ProbeSummary(results).description == "0 succeeded, 0 failed, 6 cancelled")
    }

    /// The deadline counts from the command's start: time spent before the run (reading a
    /// large targets file) is part of it.
    @Test func theDeadlineCountsFromTheGivenStart() throws {
        let runner = ProbeRunner(
            engine: SleepingEngine(delay: .seconds(30)), concurrency: 2, deadline: 1, start: .now - .seconds(5))
        let results = runner.run(try requests(4))
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.outcome == .cancelled(.deadline(seconds: 1)) })
        #expect(results.filter { $0.message?.hasPrefix("cancelled in flight") == true }.count <= 2)
    }

    @Test func cancelFromAnotherThreadEndsARealTransferToAPeerThatNeverAnswers() throws {
        let lab = try LoopbackLab.shared.get()
        let runner = ProbeRunner(
            engine: CurlProbeEngine(
                settings: ProbeSettings(proxy: ProxyConfiguration(proxy: ""), connectTimeout: 30, maxTime: 30)))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { runner.cancel(.interrupted) }
        let clock = ContinuousClock()
        let start = clock.now
        let results = runner.run([
            try ProbeRequest(parsing: "http://127.0.0.1:\(lab.silent)/"), try ProbeRequest(parsing: lab.origin("/slow")),
        ])
        #expect(clock.now - start < .seconds(2))
        #expect(results.map(\.outcome) == [.cancelled(.interrupted), .cancelled(.interrupted)])
        #expect(results.allSatisfy { $0.message == "cancelled in flight: interrupted (SIGINT)" })
        #expect(results.allSatisfy { $0.timings != nil })
    }

    @Test func aRunWithoutRequestsReturnsNothing() {
        #expect(ProbeRunner(engine: SleepingEngine(delay: .zero)).run([]).isEmpty)
    }
}
