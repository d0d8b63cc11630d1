import DockerfileSyntax

/// What a builder's cache will miss when the new side of a change is built after the base
/// side, predicted before anything is built: per build stage, which steps miss, the first
/// miss and its causes in the project's terms, and what follows from it. The rules, with their
/// sources, are in `docs/cache-rules.md`.
public struct RebuildPrediction: Sendable {
    /// One side of a change: its composition, planned, and its build context.
    public struct Side: Sendable {
        /// The composition (for its parameter bindings and snapshot parameters).
        public var composition: Composition
        /// The composed Dockerfile as builders plan it.
        public var plan: BuildPlan
        /// The build context.
        public var context: BuildContextFiles

        /// A side.
        ///
        /// - Parameters:
        ///   - composition: The composition.
        ///   - context: Its build context.
        /// - Throws: `DockerfileSyntaxError` when the composed text does not parse (a bug).
        public init(composition: Composition, context: BuildContextFiles) throws(DockerfileSyntaxError) {
            self.composition = composition
            plan = try BuildPlan(text: composition.text, lineOrigins: composition.lineOrigins)
            self.context = context
        }

        /// A side with no build stages: the base of a change that adds the Stagefile.
        ///
        /// - Parameter context: Its build context.
        public static func empty(context: BuildContextFiles) -> Side {
            Side(composition: Composition(text: "", templates: [], images: []), plan: BuildPlan(stages: []), context: context)
        }

        private init(composition: Composition, plan: BuildPlan, context: BuildContextFiles) {
            self.composition = composition
            self.plan = plan
            self.context = context
        }
    }

    /// Whether a step's cached result is used.
    public enum Cache: String, Sendable, Hashable {
        /// Found in the cache.
        case hit
        /// Built again.
        case miss
        /// Built again unless the files it copies from a rebuilt stage come out the same.
        case mayMiss = "may-miss"
    }

    /// One step of the new side with its prediction.
    public struct StepOutcome: Sendable {
        /// The step.
        public var step: BuildStep
        /// Whether the cache has it.
        public var cache: Cache
        /// Why it misses when it is the first miss (or the first possible one); empty for
        /// steps that only follow one.
        public var causes: [RebuildCause]
        /// Whether the step makes a layer under the rules.
        public var addsLayer: Bool
    }

    /// What happens to one build stage.
    public enum Status: String, Sendable, Hashable {
        /// Every step is cached and the image is the same.
        case unchanged
        /// No layer is built again, but the image configuration or history changes.
        case configurationOnly = "configuration-only"
        /// Layers are built again.
        case rebuilds
        /// Layers are built again unless files copied from a rebuilt stage come out the same.
        case mayRebuild = "may-rebuild"
        /// The build stage is gone on the new side.
        case removed
    }

    /// One build stage's prediction.
    public struct StageOutcome: Sendable {
        /// Its name as messages show it.
        public var name: String
        /// The build stage as planned on the new side; `nil` for a removed one.
        public var stage: BuildPlan.Stage?
        /// What happens to it.
        public var status: Status
        /// Its steps (new side) with their predictions.
        public var steps: [StepOutcome]
        /// Steps that change only the image configuration (BuildKit) and changed.
        public var configurationChanges: [StepOutcome]
        /// The causes that reach the stage from outside its steps (its base), when any.
        public var startCauses: [RebuildCause]

        /// How many layers it has.
        public var layers: Int { steps.filter(\.addsLayer).count }
        /// How many layers are built again (or may be).
        public var rebuiltLayers: Int { steps.filter { $0.addsLayer && $0.cache != .hit }.count }
        /// The first step that misses or may miss.
        public var firstMiss: StepOutcome? { steps.first { $0.cache != .hit } }
        /// The first step that misses for certain.
        public var firstCertainMiss: StepOutcome? { steps.first { $0.cache == .miss } }
    }

    /// The rules followed.
    public var rules: CacheRules
    /// Each build stage of the new side in file order, then those only the base side has.
    public var stages: [StageOutcome]

    /// Predicts what building `new` after `base` misses.
    ///
    /// - Parameters:
    ///   - base: The side the cache was filled from.
    ///   - new: The side built now.
    ///   - rules: Whose cache rules to follow.
    public init(base: Side, new: Side, rules: CacheRules) {
        self.rules = rules
        var comparer = StepComparer(base: base, new: new)
        var outcomes: [String: StageOutcome] = [:]
        var stages: [StageOutcome] = []
        var matched: Set<String> = []
        let newKeys = Set(new.plan.stages.map(\.key))
        for (index, stage) in new.plan.stages.enumerated() {
            // By name; a stage renamed (its old name gone) is the one at its place: builders
            // key their caches on content, never on a stage's name.
            var baseStage = base.plan.stages.first { $0.key == stage.key }
            if baseStage == nil, index < base.plan.stages.count, !newKeys.contains(base.plan.stages[index].key) {
                baseStage = base.plan.stages[index]
            }
            if let baseStage { matched.insert(baseStage.key) }
            let outcome = Self.predict(stage, base: baseStage, earlier: outcomes, rules: rules, comparer: &comparer)
            outcomes[stage.key] = outcome
            stages.append(outcome)
        }
        for stage in base.plan.stages where !matched.contains(stage.key) {
            stages.append(
                StageOutcome(
                    name: stage.name, stage: nil, status: .removed, steps: [], configurationChanges: [], startCauses: []))
        }
        self.stages = stages
    }

    /// One build stage: where its chain of cached steps breaks, and why.
    private static func predict(
        _ stage: BuildPlan.Stage, base: BuildPlan.Stage?, earlier: [String: StageOutcome], rules: CacheRules,
        comparer: inout StepComparer
    ) -> StageOutcome {
        var startCauses: [RebuildCause] = []
        if let base {
            switch (base.base, stage.base) {
            case (.image(let old), .image(let new)) where old != new:
                startCauses.append(.baseImage(old: old, new: new))
            case (_, .stage(let parent)):
                if let outcome = earlier[parent],
                    outcome.status == .rebuilds || outcome.status == .mayRebuild
                        || (rules == .buildah && outcome.status == .configurationOnly)
                {
                    // buildah starts from the stage's image, whose ID any change moves.
                    startCauses.append(outcome.status == .mayRebuild ? .copiedStage(outcome.name) : .baseStage(outcome.name))
                }
                if case .stage(let oldParent) = base.base, oldParent == parent { break }
                if case .image(let old) = base.base { startCauses.append(.baseImage(old: old, new: "build stage \(parent)")) }
            case (.stage(let parent), .image(let new)):
                startCauses.append(.baseImage(old: "build stage \(parent)", new: new))
            case (.scratch, .image(let new)):
                startCauses.append(.baseImage(old: "scratch", new: new))
            case (.image(let old), .scratch):
                startCauses.append(.baseImage(old: old, new: "scratch"))
            default:
                break
            }
        } else {
            startCauses.append(.stageAdded)
        }
        let chain = stage.steps.filter { rules == .buildah || $0.addsLayer(rules) }
        let baseChain = (base?.steps ?? []).filter { rules == .buildah || $0.addsLayer(rules) }
        var verdicts: [Int: StepOutcome] = [:]
        var state: Cache = startCauses.isEmpty ? .hit : (startCauses.contains { $0.isCertain } ? .miss : .mayMiss)
        var pendingCauses = startCauses
        for (index, step) in chain.enumerated() {
            if state != .miss {
                let causes = comparer.causes(
                    new: step, base: index < baseChain.count ? baseChain[index] : nil,
                    following: index + 1 < chain.count ? chain[index + 1] : nil,
                    baseFollowing: index + 1 < baseChain.count ? baseChain[index + 1] : nil, rules: rules,
                    rebuilt: {
                        earlier[$0].map { $0.status == .rebuilds || $0.status == .mayRebuild } ?? false
                    })
                if causes.contains(where: \.isCertain) {
                    state = .miss
                    pendingCauses += causes
                } else if !causes.isEmpty && state == .hit {
                    state = .mayMiss
                    pendingCauses += causes
                }
            }
            verdicts[step.line] = StepOutcome(step: step, cache: state, causes: pendingCauses, addsLayer: step.addsLayer(rules))
            if state != .hit { pendingCauses = [] }
        }
        var steps: [StepOutcome] = []
        var configurationChanges: [StepOutcome] = []
        let configuration = stage.steps.filter { !$0.addsLayer(rules) }
        let baseConfiguration = (base?.steps ?? []).filter { !$0.addsLayer(rules) }
        // BuildKit: a step that only sets configuration builds nothing; it is compared with the
        // base side's step it corresponds to (the same text, or the same keyword between two
        // such), so an added or removed one is told as that.
        let counterparts = Self.align(baseConfiguration, configuration)
        for step in stage.steps {
            if let verdict = verdicts[step.line] {
                steps.append(verdict)
                continue
            }
            let index = configuration.firstIndex { $0.line == step.line } ?? 0
            let causes = comparer.causes(
                new: step, base: counterparts[index].map { baseConfiguration[$0] }, following: nil, baseFollowing: nil,
                rules: rules, rebuilt: { _ in false })
            let outcome = StepOutcome(step: step, cache: .hit, causes: causes, addsLayer: false)
            steps.append(outcome)
            // An ARG is in no image configuration: what it changes shows in the steps that see it.
            if !causes.isEmpty && step.keyword != Keyword.arg.rawValue { configurationChanges.append(outcome) }
        }
        let kept = Set(counterparts.compactMap { $0 })
        // (buildah's chain holds every step: a removed one is a miss there, told in the chain.)
        for (index, removed) in baseConfiguration.enumerated()
        where rules == .buildKit && !kept.contains(index) && removed.keyword != Keyword.arg.rawValue {
            configurationChanges.append(
                StepOutcome(
                    step: removed, cache: .hit, causes: [.instructionRemoved(old: removed.text, origin: removed.origin)],
                    addsLayer: false))
        }
        let removedAtEnd = baseChain.count > chain.count
        let status: Status =
            if steps.contains(where: { $0.addsLayer && $0.cache == .miss }) {
                .rebuilds
            } else if steps.contains(where: { $0.addsLayer && $0.cache == .mayMiss }) {
                .mayRebuild
            } else if steps.contains(where: { $0.cache != .hit }) || !configurationChanges.isEmpty || removedAtEnd
                || !startCauses.isEmpty
            {
                .configurationOnly
            } else {
                .unchanged
            }
        return StageOutcome(
            name: stage.name, stage: stage, status: status, steps: steps, configurationChanges: configurationChanges,
            startCauses: startCauses)
    }

    /// For each new step, the index of the base step it corresponds to: steps of the longest
    /// common subsequence of the two texts, then, between two such, steps of the same keyword
    /// in order (a changed one); `nil` for an added step.
    static func align(_ base: [BuildStep], _ new: [BuildStep]) -> [Int?] {
        // Longest common subsequence by text; the lists are a build stage's steps, so small.
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: base.count + 1)
        for i in stride(from: base.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] =
                    base[i].text == new[j].text ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var counterparts: [Int?] = Array(repeating: nil, count: new.count)
        var anchors: [(Int, Int)] = []
        var (i, j) = (0, 0)
        while i < base.count && j < new.count {
            if base[i].text == new[j].text {
                anchors.append((i, j))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        for (i, j) in anchors { counterparts[j] = i }
        // Between anchors, unmatched steps pair up by keyword, in order.
        var previous = (-1, -1)
        for (i, j) in anchors + [(base.count, new.count)] {
            var unmatchedBase = Array((previous.0 + 1)..<i)
            for newIndex in (previous.1 + 1)..<j {
                if let position = unmatchedBase.firstIndex(where: { base[$0].keyword == new[newIndex].keyword }) {
                    counterparts[newIndex] = unmatchedBase[position]
                    unmatchedBase.removeSubrange(...position)
                }
            }
            previous = (i, j)
        }
        return counterparts
    }
}
