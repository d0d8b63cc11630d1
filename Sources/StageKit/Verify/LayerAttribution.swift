/// Which instruction of a composed Dockerfile made each layer of an image built from it: the
/// image's history aligned with the build stage's instructions (and those of the stages it
/// starts from), so a layer names its instruction, that instruction its composed line, and
/// that line its template's `file:line`.
///
/// buildah (`bud --layers`) records one history entry per instruction after `FROM`, marking
/// those without a layer `empty_layer`; the entries before them are the base image's.
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

    /// The keyword an image history entry records: the word after `#(nop) `, else `RUN`
    /// (buildah's and Docker's `created_by`).
    static func recordedKeyword(_ createdBy: String) -> String {
        guard let range = createdBy.range(of: "#(nop) ") else { return "RUN" }
        return String(createdBy[range.upperBound...].prefix { !$0.isWhitespace }).uppercased()
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
        // Each entry's instruction must be the step it is aligned with (buildah writes
        // `/bin/sh -c #(nop) KEYWORD …` for all but RUN); an image of another stage, or a
        // builder that records history otherwise, names no line rather than a wrong one.
        matches =
            offset >= 0 && history.filter({ !$0.emptyLayer }).count == image.layers.count
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
