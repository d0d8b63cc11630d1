import Dispatch
import ProbeKit
import Serialization
import Synchronization

/// `probe --pac … --pac-only`: the PAC script's answer for each target, one line each (or a JSON
/// document, `docs/probe-json.md`), and no call; `--concurrency` scripts at once. Exit 0 when every
/// target got an answer with an entry a device can use, else 1.
enum PACOnlyRun {
    /// One target's decision.
    private struct Decision: Sendable {
        var target: String
        var answer: PACAnswer?
        var problem: String?
    }

    static func run(_ plan: ProbePlan, pac: PACSettings, context: CommandContext) throws(CommandFailure) -> ExitCode {
        guard !plan.streamsStandardInput else {
            throw .usage("--pac-only reads its URLs whole: give --targets a file, or pipe them into --targets FILE")
        }
        guard plan.format != .junit else { throw .usage("--pac-only writes text or json, not junit: no call is made") }
        var made: [ProbeRequest] = []
        for index in 0..<plan.targets.count {
            switch plan.request(for: plan.targets[index], repetition: 1) {
            case .success(let request): made.append(request)
            case .failure(let failure): throw .usage(failure.result.message ?? "\(failure.result.target) is no URL")
            }
        }
        let requests = made
        let decisions = Mutex([Decision?](repeating: nil, count: requests.count))
        let next = Atomic<Int>(0)
        let resolve = plan.settings.resolve
        let seconds = plan.settings.effectiveMaxTime
        DispatchQueue.concurrentPerform(iterations: min(plan.concurrency, max(1, requests.count))) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < requests.count else { return }
                var decision = Decision(target: requests[index].target)
                do {
                    let answer = try pac.answer(for: requests[index], resolve: resolve, within: seconds)
                    decision.answer = answer
                    if answer.entries.isEmpty { decision.problem = "no entry a device can use" }
                } catch {
                    decision.problem = "\(error)"
                }
                decisions.withLock { $0[index] = decision }
            }
        }
        let all = decisions.withLock { $0.compactMap { $0 } }
        if plan.format == .json {
            context.standardOutput.write(
                JSONValue.object([("script", .string(pac.origin)), ("targets", .array(all.map(object)))]).text() + "\n")
        } else {
            context.standardOutput.write("# \(pac.origin)\n" + all.map(line).joined())
        }
        return all.allSatisfy { $0.problem == nil } ? .success : .checkFailed
    }

    /// `URL  "ANSWER"`, then what was skipped or went wrong.
    private static func line(_ decision: Decision) -> String {
        var text = decision.target
        if let answer = decision.answer { text += "  \"\(PACAnswer.shown(answer.text))\"" }
        if let unreadable = decision.answer?.unreadable, !unreadable.isEmpty {
            text += " skipped: " + unreadable.map { "\"\(PACAnswer.shown($0))\"" }.joined(separator: ", ")
        }
        if let problem = decision.problem { text += " error: \(problem)" }
        return ControlCharacters.escaped(text) + "\n"
    }

    private static func object(_ decision: Decision) -> JSONValue {
        .object([
            ("target", .string(decision.target)),
            ("answer", .string(decision.answer.map { PACAnswer.shown($0.text) })),
            ("entries", .array((decision.answer?.entries ?? []).map { .string($0.description) })),
            ("unreadable", .array((decision.answer?.unreadable ?? []).map { .string(PACAnswer.shown($0)) })),
            ("error", .string(decision.problem)),
        ])
    }
}
