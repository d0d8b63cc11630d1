import DockerfileSyntax
import Serialization

/// The state of one composition: templates loaded so far and the build stage being written.
struct CompositionSession {
    let composer: Composer
    let stagefile: Stagefile
    var templates: [String: StageTemplate] = [:]
    var blocks: [[ComposedLine]] = []
    var pending: [SyntaxElement] = []
    /// False until the first `FROM`: a layer template has no build stage to add steps to.
    var inBuildStage = false
    var stage = BuildStageState()
    var syntax: (value: String, origin: String)?
    /// Where each block of `blocks` comes from: the Stagefile's path as shown, or a template's
    /// path relative to the Stagefile.
    var blockOrigins: [String] = []
    /// Whether images are pinned by a lockfile (the header says so).
    let isLocked: Bool
    /// Each parameter value the Stagefile gave, in the order bound.
    var parameterBindings: [Composition.ParameterBinding] = []
    /// The lockfile's snapshot moments by parameter (`DEBIAN_SNAPSHOT`, …): each written where
    /// the Stagefile gives its parameter none.
    var lockedSnapshots: [String: String] = [:]
    /// Each build stage as composed, for lock's package pins.
    var stageRecords: [StageRecord] = []

    /// One build stage: its name, its base image, the templates placed in it with the value of
    /// each of their parameters, and where its lines of the Stagefile begin.
    struct StageRecord {
        var alias: String?
        var image: String?
        var stagefileStart: Int
        var placements: [(template: StageTemplate, values: [String: String], location: SourceLocation)] = []
    }

    init(composer: Composer, stagefile: Stagefile, isLocked: Bool = false) {
        self.composer = composer
        self.stagefile = stagefile
        self.isLocked = isLocked
        if let value = stagefile.syntax.directives.syntax { syntax = (value, composer.stagefileName) }
    }

    /// What one build stage holds so far.
    struct BuildStageState {
        /// Why each template is in the build stage.
        var placed: [String: Placement] = [:]
        var values: [String: (value: String, template: String)] = [:]
        /// The template that last set each of `USER`, `WORKDIR`, `ENTRYPOINT`, `CMD`, `SHELL`.
        var setters: [Keyword: String] = [:]
        /// The working directory the templates' `WORKDIR`s give so far, as written; `nil` before
        /// any, or once one holds a variable.
        var workdir: String?
        /// The names the Stagefile's own `ARG` lines declare in this build stage.
        var stagefileArguments: Set<String> = []
        /// The Stagefile's `USER` (not root), `SHELL` and relative `WORKDIR` in effect, as
        /// written and where: the templates placed after them run their commands under them.
        var stagefileSettings: [Keyword: (text: String, location: SourceLocation)] = [:]
        /// The `ENV` names set so far in this build stage (or the build stage it starts from):
        /// where, `Stagefile:4` or a template's `file:line`, whether a template set it, and the
        /// value as the builder reads it.
        var environment: [String: EnvironmentEntry] = [:]
    }

    /// One `ENV` name set in a build stage.
    struct EnvironmentEntry {
        /// Where: `Stagefile:4` or a template's `file:line`.
        var place: String
        /// Whether a template set it.
        var byTemplate: Bool
        /// The value as the builder reads it, the template's parameters in place where known.
        var value: String
        /// The build stage it comes from, when an earlier one passed it on.
        var inheritedFrom: String?
    }

    /// Each finished build stage's `ENV` names and the Stagefile settings in effect, by alias
    /// lower-cased: a build stage that starts `FROM alias` inherits them.
    var finishedStages:
        [String: (environment: [String: EnvironmentEntry], settings: [Keyword: (text: String, location: SourceLocation)])] = [:]
    /// The values the Stagefile's global `ARG`s (before the first `FROM`) give, unquoted.
    var globalArgumentValues: [String: String] = [:]

    /// Where composition does something a reader of the parts would not expect.
    var warnings: [CompositionError] = []
    /// The names the Stagefile's `ARG` lines declare before the first `FROM`.
    var globalArguments: Set<String> = []
    /// The build-stage aliases seen so far, lower-cased as BuildKit compares them.
    var aliases: [String: SourceLocation] = [:]

    /// Instructions of which a build stage keeps only the last (or whose effect later steps
    /// inherit): two templates setting one of them is worth a warning.
    static let overridingKeywords: [Keyword] = [.user, .workdir, .entrypoint, .cmd, .shell]

    var escape: EscapeCharacter { stagefile.syntax.directives.escapeCharacter }

    mutating func run() throws(CompositionError) -> String {
        for item in stagefile.items {
            switch item {
            case .element(let element):
                if case .directive = element.kind { continue }
                if case .instruction(let instruction) = element.kind {
                    if let from = instruction.asFrom {
                        flushStagefileLines()
                        startBuildStage(from: from.base?.text)
                        inBuildStage = true
                        stageRecords.append(
                            StageRecord(alias: from.alias?.text, image: from.base?.text, stagefileStart: instruction.startLine))
                        try noteAlias(from.alias?.text, at: from.alias.map(instruction.location(of:)) ?? instruction.location)
                    } else if let arg = instruction.asArg {
                        let names = arg.declarations.map(\.name.text)
                        if inBuildStage { stage.stagefileArguments.formUnion(names) } else { globalArguments.formUnion(names) }
                        if !inBuildStage {
                            for declaration in arg.declarations {
                                globalArgumentValues[declaration.name.text] = declaration.defaultValue.map {
                                    escape.unquoted($0.text)
                                }
                            }
                        } else {
                            for declaration in arg.declarations {
                                guard let value = declaration.defaultValue?.text,
                                    let set = stage.environment[declaration.name.text], set.byTemplate
                                else { continue }
                                try refuseEnvironmentSplit(
                                    declaration.name.text, what: "the Stagefile's ARG \(declaration.name.text)", renamed: "ARG",
                                    value: escape.unquoted(value),
                                    file: stagefile.displayPath, at: instruction.location(of: declaration.word))
                            }
                        }
                    } else if inBuildStage, instruction.knownKeyword == .env {
                        noteEnvironment(
                            instruction, place: "\(stagefile.displayPath):\(instruction.startLine)", byTemplate: false)
                    } else if inBuildStage, let keyword = instruction.knownKeyword, [.user, .shell, .workdir].contains(keyword) {
                        noteStagefileSetting(instruction, keyword: keyword)
                    } else if !inBuildStage {
                        throw CompositionError(
                            "\(instruction.keyword) comes before any FROM; only ARG may (Dockerfile reference, "
                                + "\"Understand how ARG and FROM interact\")",
                            file: stagefile.displayPath, at: SourceLocation(line: instruction.startLine, column: 1))
                    }
                }
                pending.append(element)
            case .baseTemplate(let reference, let alias, let platform):
                let pragmas = takeTrailingLintPragmas()
                flushStagefileLines()
                startBuildStage(from: nil)
                inBuildStage = true
                stageRecords.append(StageRecord(alias: alias, image: nil, stagefileStart: reference.location.line))
                try noteAlias(alias, at: reference.location)
                try placeBase(reference, alias: alias, platform: platform, pragmas: pragmas)
            case .layerTemplate(let reference):
                guard inBuildStage else {
                    throw CompositionError(
                        "USE \(reference.name) comes before any FROM; a layer template adds steps to a build stage, "
                            + "so start one first with FROM stage:NAME or FROM IMAGE",
                        file: stagefile.displayPath, at: reference.location)
                }
                flushStagefileLines()
                try placeLayer(reference, requiredBy: nil, path: [])
            }
        }
        flushStagefileLines()
        guard inBuildStage else {
            throw CompositionError(
                "the Stagefile has no FROM; start a build stage with FROM stage:NAME or FROM IMAGE", file: stagefile.displayPath)
        }
        return header() + blocks.map { $0.map(\.text).joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }
}
