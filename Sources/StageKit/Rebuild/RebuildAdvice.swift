import DockerfileSyntax

/// A way to make a change rebuild less, found where a prediction shows a first miss that an
/// ordering of the template would have avoided.
public struct RebuildAdvice: Sendable, Hashable {
    /// The template or Stagefile line to change.
    public var origin: Composition.LineOrigin?
    /// The build stage.
    public var stage: String
    /// What to do and why, one sentence.
    public var message: String

    /// The advice for a prediction: for each build stage that rebuilds,
    ///
    /// - a first miss caused only by an argument the step's command does not name (a `RUN`
    ///   sees every `ARG` declared before it): declare the argument just before its first use,
    ///   unless the step reads it from its environment (a script may);
    /// - a first miss at a `COPY` of a whole folder of the context (`.` or a folder) with
    ///   `RUN` steps after it: copy first what those steps need.
    ///
    /// - Parameter prediction: The prediction.
    /// - Returns: The advice, in build stage order.
    public static func advice(for prediction: RebuildPrediction) -> [RebuildAdvice] {
        var advice: [RebuildAdvice] = []
        for outcome in prediction.stages where outcome.status == .rebuilds {
            guard let first = outcome.firstMiss, let index = outcome.steps.firstIndex(where: { $0.cache != .hit })
            else { continue }
            let later = outcome.steps[(index + 1)...]
            let place = first.step.origin.map { "\($0.file):\($0.line)" } ?? "line \(first.step.line)"
            let variables = first.causes.compactMap { if case .variable(let change) = $0 { change } else { nil } }
            if !variables.isEmpty, variables.count == first.causes.count {
                let used = Set(DockerfileDocument.references(in: first.step.text))
                // Only an ARG can move: an ENV is the image's, and a later step may read it.
                for change in variables where change.setBy == Keyword.arg.rawValue && !used.contains(change.name) {
                    guard let use = later.first(where: { DockerfileDocument.references(in: $0.step.text).contains(change.name) })
                    else { continue }
                    let kept = later.prefix { $0.step.line != use.step.line }.filter(\.addsLayer).count + 1
                    let declared = change.setAt.map { "\($0.file):\($0.line)" } ?? "its ARG"
                    let firstUse = use.step.origin.map { "\($0.file):\($0.line)" } ?? "line \(use.step.line)"
                    advice.append(
                        RebuildAdvice(
                            origin: change.setAt, stage: outcome.name,
                            message:
                                "ARG \(change.name) (declared at \(declared)) reaches \(first.step.keyword) at \(place), "
                                + "whose command does not name it, as an environment variable; unless that step reads "
                                + "\(change.name) from its environment, declaring the ARG just before its first use "
                                + "(\(firstUse)) keeps \(kept) layer(s) cached when it changes"))
                }
            }
            let wholeFolders = first.causes.compactMap { cause -> String? in
                guard case .contextFiles(let source, _) = cause, source == "." || source == "./" || source.hasSuffix("/")
                else { return nil }
                return source
            }
            if let source = wholeFolders.first, let run = later.first(where: { $0.step.keyword == "RUN" }) {
                let runAt = run.step.origin.map { "\($0.file):\($0.line)" } ?? "line \(run.step.line)"
                advice.append(
                    RebuildAdvice(
                        origin: first.step.origin, stage: outcome.name,
                        message:
                            "\(first.step.keyword) \(source) at \(place) copies a whole folder before RUN at \(runAt): any file "
                            + "there rebuilds every later layer; copy the files that RUN needs (a lockfile, a manifest) "
                            + "first and the rest after it"))
            }
        }
        return advice
    }
}
