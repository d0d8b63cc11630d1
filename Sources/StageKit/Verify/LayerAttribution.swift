/// Which instruction of a composed Dockerfile made each layer of an image built from it: the
/// image's history aligned with the build stage's instructions (and those of the stages it
/// starts from), so a layer names its instruction, that instruction its composed line, and
/// that line its template's `file:line`.
///
/// buildah (`bud --layers`) and BuildKit record one history entry per instruction after `FROM`,
/// marking those without a layer `empty_layer`; the entries before them are the base image's.
public struct LayerAttribution: Sendable {
    /// The instructions of the build stage and the stages it starts from, in build order.
    public var steps: [BuildStep]
    /// For each layer, bottom first: the index in ``steps`` of the instruction that made it,
    /// or `nil` for a layer of the base image.
    public var stepOfLayer: [Int?]
    /// The base image the chain of build stages starts from; `nil` for `scratch`.
    public var baseImage: String?
    /// Whether the image's history is the stage's instructions; when not, no layer is named.
    public var matches: Bool

    /// The keyword an image history entry records (its `created_by`): the word after `#(nop) `
    /// (buildah, Docker's legacy builder: `/bin/sh -c #(nop)  ENV A=b`), the first word when it
    /// is one in capitals (BuildKit: `COPY a /b # buildkit`, `RUN |1 A=b /bin/sh -c … # buildkit`),
    /// else `RUN` (a shell command as buildah records it: `/bin/sh -c make`).
    static func recordedKeyword(_ createdBy: String) -> String {
        if let range = createdBy.range(of: "#(nop) ") {
            return String(createdBy[range.upperBound...].drop { $0 == " " }.prefix { !$0.isWhitespace }).uppercased()
        }
        let first = createdBy.prefix { !$0.isWhitespace }
        return !first.isEmpty && first.allSatisfy({ $0.isASCII && $0.isUppercase }) ? String(first) : "RUN"
    }

    /// Aligns an image's history with a build stage.
    ///
    /// - Parameters:
    ///   - plan: The composed Dockerfile's plan.
    ///   - stage: The build stage's key (`BuildPlan.Stage.key`).
    ///   - image: The image built for it.
    public init(plan: BuildPlan, stage: String, image: OCIImage) {
        var chain: [BuildPlan.Stage] = []
        var key: String? = stage
        while let current = key, let found = plan.stages.first(where: { $0.key == current }),
            !chain.contains(where: { $0.key == found.key })
        {
            chain.insert(found, at: 0)
            if case .stage(let parent) = found.base { key = parent } else { key = nil }
        }
        let steps = chain.flatMap(\.steps)
        self.steps = steps
        if case .image(let reference)? = chain.first?.base { baseImage = reference } else { baseImage = nil }
        let history = image.history
        let offset = history.count - steps.count
        // Each entry's instruction must be the step it is aligned with (``recordedKeyword``);
        // an image of another stage, or a
        // builder that records history otherwise, names no line rather than a wrong one.
        // No stage (--compare without a Dockerfile) names no line.
        matches =
            !chain.isEmpty && offset >= 0 && history.filter({ !$0.emptyLayer }).count == image.layers.count
            && zip(history[offset...], steps).allSatisfy { entry, step in
                Self.recordedKeyword(entry.createdBy) == step.keyword.uppercased()
            }
        var stepOfLayer: [Int?] = []
        if matches {
            for (index, entry) in history.enumerated() where !entry.emptyLayer {
                stepOfLayer.append(index >= offset ? index - offset : nil)
            }
        } else {
            stepOfLayer = image.layers.map { _ in nil }
        }
        self.stepOfLayer = stepOfLayer
    }
}
