import DockerfileSyntax

extension DockerfileDocument {
    /// One build stage: the instructions from one `FROM` to the next.
    struct BuildStage: Sendable {
        /// The `FROM` instruction; `nil` for the instructions before the first `FROM`.
        var from: Entry?
        /// The index of the `FROM` in `DockerfileDocument.entries`; `nil` without one.
        var fromIndex: Int?
        /// The index of each instruction of the stage in `DockerfileDocument.entries`, `FROM` excluded.
        var entryIndices: [Int]

        /// What `FROM` names as written: an image, `scratch`, an earlier stage, or
        /// `stage:NAME` in a Stagefile.
        var base: String? { from?.instruction.asFrom?.base?.text }

        /// The name after `AS` as written.
        var writtenAlias: String? { from?.instruction.asFrom?.alias?.text }

        /// The name after `AS`, lower-cased as BuildKit compares stage names.
        var alias: String? { writtenAlias?.lowercased() }

        /// True for a Stagefile's `FROM stage:NAME`: the base is a stage template.
        var isTemplateReference: Bool { from?.instruction.isBaseTemplateReference ?? false }
    }

    static func buildStages(_ entries: [Entry]) -> [BuildStage] {
        var stages: [BuildStage] = []
        var current = BuildStage(from: nil, fromIndex: nil, entryIndices: [])
        for (index, entry) in entries.enumerated() {
            if entry.keyword == .from {
                if current.from != nil || !current.entryIndices.isEmpty { stages.append(current) }
                current = BuildStage(from: entry, fromIndex: index, entryIndices: [])
            } else {
                current.entryIndices.append(index)
            }
        }
        stages.append(current)
        return stages
    }

    /// The instructions of a stage.
    ///
    /// - Parameter stage: A stage of this document.
    func entries(of stage: BuildStage) -> [Entry] {
        stage.entryIndices.map { entries[$0] }
    }

    /// The index in `stages` of the build stage an instruction belongs to.
    ///
    /// - Parameter entryIndex: The instruction's index in `entries`.
    func stageIndex(ofEntry entryIndex: Int) -> Int? {
        stages.firstIndex { $0.fromIndex == entryIndex || $0.entryIndices.contains(entryIndex) }
    }

    /// A build stage and the earlier stages it is built on, nearest first: the instructions an
    /// image of the stage inherits (`ENV`, `ENTRYPOINT`, `USER`).
    ///
    /// - Parameter stageIndex: An index in `stages`.
    func stageChain(of stageIndex: Int) -> [Int] {
        let parents = parentStages
        var chain: [Int] = []
        var current: Int? = stageIndex
        while let index = current, !chain.contains(index) {
            chain.append(index)
            current = parents[index]
        }
        return chain
    }

    /// The command a container of the image runs, for `CMD` and `ENTRYPOINT`, or the check's
    /// command for `HEALTHCHECK`; `nil` for other instructions and for `HEALTHCHECK NONE`.
    ///
    /// - Parameter entry: An instruction of this document.
    func containerCommand(of entry: Entry) -> CommandForm? {
        switch entry.keyword {
        case .cmd, .entrypoint: entry.instruction.command
        case .healthcheck: entry.instruction.asHealthcheck?.command
        default: nil
        }
    }

    /// The names of all build stages, lower-cased.
    var stageNames: Set<String> { Set(stages.compactMap(\.alias)) }

    /// For each build stage, the index in `stages` of the earlier stage its `FROM` builds on
    /// (the last stage before it with that name); `nil` when it builds on an image, a stage
    /// template, or has no `FROM`. Computed in one pass.
    var parentStages: [Int?] {
        var latest: [String: Int] = [:]
        var parents: [Int?] = []
        parents.reserveCapacity(stages.count)
        for (index, stage) in stages.enumerated() {
            parents.append(stage.base.flatMap { latest[$0.lowercased()] })
            if let alias = stage.alias { latest[alias] = index }
        }
        return parents
    }
}
