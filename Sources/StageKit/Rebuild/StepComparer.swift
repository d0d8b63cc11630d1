/// Compares a step of the new side with the base side's step at the same place in the cache
/// chain and says why their cache keys differ; the context files each side's sources name
/// are read once per source.
struct StepComparer {
    /// The side the cache was filled from.
    let base: RebuildPrediction.Side
    /// The side built now.
    let new: RebuildPrediction.Side
    /// Fingerprints already read, per side (`false`: base) and source.
    private var fingerprints: [Bool: [String: [String: String]]] = [:]

    init(base: RebuildPrediction.Side, new: RebuildPrediction.Side) {
        self.base = base
        self.new = new
    }

    /// Why `new`'s cache key differs from `base`'s, most telling first; empty when they are the same.
    ///
    /// - Parameters:
    ///   - new: The new side's step.
    ///   - base: The base side's step at the same place; `nil` when the base side has fewer.
    ///   - following: The new side's next step in the chain (to tell an added step).
    ///   - baseFollowing: The base side's next step (to tell a removed one).
    ///   - rules: Whose cache key.
    ///   - rebuilt: Whether a build stage, by its key, rebuilds (or may).
    mutating func causes(
        new step: BuildStep, base old: BuildStep?, following: BuildStep?, baseFollowing: BuildStep?, rules: CacheRules,
        rebuilt: (String) -> Bool
    ) -> [RebuildCause] {
        guard let old else { return [.instructionAdded] }
        let newKey = step.key(rules)
        let oldKey = old.key(rules)
        guard newKey != oldKey || newKey.contains(where: \.readsFiles) else { return [] }
        var causes: [RebuildCause] = []
        if Self.texts(newKey) != Self.texts(oldKey) {
            if let baseFollowing, baseFollowing.key(rules) == newKey {
                return [.instructionRemoved(old: old.text, origin: old.origin)]
            }
            if let following, Self.texts(following.key(rules)) == Self.texts(oldKey) {
                return [.instructionAdded]
            }
            causes.append(.instructionChanged(old: old.text, new: step.text))
        }
        let oldVariables = Self.variables(oldKey)
        let newVariables = Self.variables(newKey)
        for name in Set(oldVariables.keys).union(newVariables.keys).sorted() {
            let before = oldVariables[name] ?? nil
            let after = newVariables[name] ?? nil
            guard oldVariables[name] == nil || newVariables[name] == nil || before != after else { continue }
            causes.append(.variable(variableChange(name, old: before, new: after, newStep: step, oldStep: old)))
        }
        for (setting, oldValue, newValue) in Self.settings(oldKey, newKey) where oldValue != newValue {
            causes.append(.runsWith(setting: setting, old: oldValue, new: newValue))
        }
        let oldSources = oldKey.compactMap(\.contextSource)
        for (index, source) in newKey.compactMap(\.contextSource).enumerated() where index < oldSources.count {
            let changes = contextChanges(old: oldSources[index], new: source)
            if !changes.isEmpty { causes.append(.contextFiles(source: source, changes: changes)) }
        }
        for case .stageFiles(let key) in newKey where rebuilt(key) {
            causes.append(.copiedStage(new.plan.stages.first { $0.key == key }?.name ?? key))
        }
        return causes
    }

    /// A variable's change, with where the new side sets it and the Stagefile binding behind it.
    private func variableChange(
        _ name: String, old: String?, new value: String?, newStep: BuildStep, oldStep: BuildStep
    ) -> VariableChange {
        func origin(_ side: RebuildPrediction.Side, _ line: Int?) -> Composition.LineOrigin? {
            guard let line, line >= 1, line <= side.composition.lineOrigins.count else { return nil }
            return side.composition.lineOrigins[line - 1]
        }
        let setAt = origin(new, newStep.variableLines[name]) ?? origin(base, oldStep.variableLines[name])
        let binding =
            new.composition.parameterBindings.last { $0.parameter == name && $0.value == value }
            ?? base.composition.parameterBindings.last { $0.parameter == name && $0.value == old }
        let isSnapshot =
            new.composition.snapshotParameters.contains(name) || base.composition.snapshotParameters.contains(name)
        let line = newStep.variableLines[name]
        let setBy = line.flatMap { line in new.plan.stages.lazy.flatMap(\.steps).first { $0.line == line }?.keyword }
        return VariableChange(
            name: name, old: old, new: value, setAt: setAt, binding: isSnapshot ? nil : binding, isSnapshot: isSnapshot,
            setBy: setBy)
    }

    /// The context files that differ between the base side's source and the new side's.
    private mutating func contextChanges(old: String, new source: String) -> [ContextFileChange] {
        let before = files(of: old, newSide: false)
        let after = files(of: source, newSide: true)
        var changes: [ContextFileChange] = []
        for path in Set(before.keys).union(after.keys).sorted() {
            switch (before[path], after[path]) {
            case (nil, _?): changes.append(ContextFileChange(path: path, kind: .added))
            case (_?, nil): changes.append(ContextFileChange(path: path, kind: .removed))
            case (let a?, let b?) where a != b: changes.append(ContextFileChange(path: path, kind: .changed))
            default: break
            }
        }
        return changes
    }

    /// A source's fingerprints on one side, read once.
    private mutating func files(of source: String, newSide: Bool) -> [String: String] {
        if let known = fingerprints[newSide]?[source] { return known }
        let read = (newSide ? new : base).context.fingerprints(of: source)
        fingerprints[newSide, default: [:]][source] = read
        return read
    }

    /// The key's text parts.
    private static func texts(_ key: [CacheKeyPart]) -> [String] {
        key.compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    /// The key's variables by name.
    private static func variables(_ key: [CacheKeyPart]) -> [String: String?] {
        var values: [String: String?] = [:]
        for case .variable(let name, let value) in key { values[name] = value }
        return values
    }

    /// The user, working folder and shell of both keys, where the new one has them.
    private static func settings(_ old: [CacheKeyPart], _ new: [CacheKeyPart]) -> [(String, String, String)] {
        func value(_ key: [CacheKeyPart], _ pick: (CacheKeyPart) -> String?) -> String? { key.lazy.compactMap(pick).first }
        let readers: [(String, (CacheKeyPart) -> String?)] = [
            ("USER", { if case .user(let user) = $0 { user } else { nil } }),
            ("WORKDIR", { if case .workingDirectory(let folder) = $0 { folder } else { nil } }),
            ("SHELL", { if case .shell(let shell) = $0 { shell } else { nil } }),
        ]
        return readers.compactMap { setting, pick in
            guard let before = value(old, pick), let after = value(new, pick) else { return nil }
            return (setting, before, after)
        }
    }
}

extension CacheKeyPart {
    /// Whether the part stands for files whose content decides (context or another stage's).
    var readsFiles: Bool {
        switch self {
        case .contextFiles, .stageFiles: true
        default: false
        }
    }

    /// The context source of a `.contextFiles` part.
    var contextSource: String? {
        if case .contextFiles(let source) = self { source } else { nil }
    }
}
