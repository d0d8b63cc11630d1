import Curl
import ProbeKit
import Serialization

/// `probe --pac … --pac-only`: the PAC script's answer for each target, one line each (or a JSON
/// array), and no call. Exit 0 when every target got an answer with an entry a device can use,
/// else 1.
enum PACOnlyRun {
    static func run(_ plan: ProbePlan, pac: PACSettings, context: CommandContext) throws(CommandFailure) -> ExitCode {
        guard !plan.streamsStandardInput else {
            throw .usage("--pac-only reads its URLs whole: give --targets a file, or pipe them into --targets FILE")
        }
        var allAnswered = true
        var text = ""
        var objects: [JSONValue] = []
        for index in 0..<plan.targets.count {
            let request: ProbeRequest
            switch plan.request(for: plan.targets[index], repetition: 1) {
            case .success(let made): request = made
            case .failure(let failure): throw .usage(failure.result.message ?? "\(failure.result.target) is no URL")
            }
            let answer: PACAnswer?
            var problem: String?
            do {
                answer = try pac.answer(for: request, resolve: plan.settings.resolve)
                if answer?.entries.isEmpty == true { problem = "no entry a device can use" }
            } catch {
                answer = nil
                problem = error.description
            }
            allAnswered = allAnswered && problem == nil
            let shownAnswer = answer.map { Redaction.text($0.text) }
            text +=
                ControlCharacters.escaped(
                    "\(request.target)  " + (shownAnswer.map { "\"\($0)\"" } ?? "") + (problem.map { " error: \($0)" } ?? ""))
                + "\n"
            objects.append(
                .object([
                    ("target", .string(request.target)),
                    ("answer", .string(shownAnswer)),
                    ("entries", .array((answer?.entries ?? []).map { .string($0.description) })),
                    ("unreadable", .array((answer?.unreadable ?? []).map { .string(Redaction.text($0)) })),
                    ("error", .string(problem)),
                ]))
        }
        if plan.format == .json {
            context.standardOutput.write(
                JSONValue.object([("script", .string(pac.origin)), ("targets", .array(objects))])
                    .text() + "\n")
        } else {
            context.standardOutput.write("# \(pac.origin)\n" + text)
        }
        return allAnswered ? .success : .checkFailed
    }
}
