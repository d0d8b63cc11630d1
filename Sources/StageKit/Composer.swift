import DockerfileSyntax
import Serialization

/// Layers stage templates and a Stagefile's own steps into one Dockerfile.
///
/// Within each build stage, `requires` is followed transitively: each template appears once,
/// before its first dependent; otherwise the Stagefile's order holds, and templates required
/// by the same one come in name order. The output depends only on the Stagefile, the
/// templates and the format version: LF line endings, one trailing newline, no time stamps,
/// no absolute paths, nothing from the environment.
public struct Composer: Sendable {
    /// Bumped whenever the same inputs would give different output.
    public static let formatVersion = 1

    /// The catalog templates are loaded from.
    public var catalog: StageCatalog
    /// The directory of the Stagefile; provenance paths are relative to it.
    public var stagefileDirectory: String
    /// The Stagefile's file name, as written into the output (never a path that depends on
    /// where the tool ran).
    public var stagefileName: String
    /// The command line that regenerates the output, written into its header.
    public var regenerateCommand: String

    /// Creates a composer.
    ///
    /// - Parameters:
    ///   - catalog: Where templates come from.
    ///   - stagefileDirectory: The absolute directory of the Stagefile.
    ///   - stagefileName: The Stagefile's file name for the output.
    ///   - regenerateCommand: The command shown in the header, e.g. `stagebuild compose Stagefile -o Dockerfile`.
    public init(catalog: StageCatalog, stagefileDirectory: String, stagefileName: String, regenerateCommand: String) {
        self.catalog = catalog
        self.stagefileDirectory = stagefileDirectory
        self.stagefileName = stagefileName
        self.regenerateCommand = regenerateCommand
    }

    /// Composes a Stagefile.
    ///
    /// - Parameter stagefile: The parsed Stagefile.
    /// - Returns: The Dockerfile text.
    /// - Throws: `CompositionError` for an unknown template (with the closest names), a base
    ///   template used with `USE` or a layer with `FROM stage:`, an unknown or missing
    ///   parameter, one parameter bound to two values in a build stage, a `requires` cycle,
    ///   and a template whose escape character or `# syntax=` differs from the Stagefile's.
    public func compose(_ stagefile: Stagefile) throws(CompositionError) -> String {
        try composition(of: stagefile).text
    }

    /// Composes a Stagefile and tells what the result is made of: the templates it used and
    /// the images it names; with a lockfile, every image the lockfile holds comes out pinned,
    /// `IMAGE:TAG@sha256:…`, and the header names the lockfile.
    ///
    /// - Parameters:
    ///   - stagefile: The parsed Stagefile.
    ///   - lockfile: The lockfile beside the Stagefile, or `nil` to leave images as written.
    ///   - snapshots: Snapshot moments by parameter, written where the Stagefile gives that
    ///     parameter none (`lock --snapshot`); the lockfile's when `nil`.
    /// - Returns: The composition.
    /// - Throws: `CompositionError` as ``compose(_:)``, and for an apt archive declaration whose
    ///   values make no archive.
    public func composition(
        of stagefile: Stagefile, lockfile: Lockfile? = nil, snapshots: [String: String]? = nil
    ) throws(CompositionError) -> Composition {
        var session = CompositionSession(composer: self, stagefile: stagefile, isLocked: lockfile != nil)
        session.lockedSnapshots = snapshots ?? lockfile?.snapshots ?? [:]
        let text = try session.run()
        var composition = Composition(
            text: text, templates: session.templates.values.sorted { $0.name < $1.name }, images: session.imageMentions())
        composition.lineOrigins = session.lineOrigins()
        composition.rewrittenColumns = session.rewrittenColumns()
        composition.warnings = session.warnings
        (composition.packageStages, composition.variablePackagePins) = try session.packageStages()
        composition.parameterBindings = session.parameterBindings
        if let lockfile { composition.pin(with: lockfile) }
        return composition
    }
}

/// One line of composed text (without its line end) and where it comes from.
struct ComposedLine {
    var text: String
    var origin: Composition.LineOrigin?
    /// For a base template's `FROM` as compose writes it: the image and its 1-based column.
    var fromImage: (written: String, column: Int, sourceColumn: Int)?

    /// The lines of an element's text, line ends made LF (heredoc bodies keep theirs), each
    /// with its line in `file`.
    static func lines(of element: SyntaxElement, in file: String) -> [ComposedLine] {
        var text = element.textWithLFLineEnds
        text.makeContiguousUTF8()
        // A byte scan: a large Stagefile has tens of thousands of lines.
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var lines: [ComposedLine] = []
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                lines.append(
                    ComposedLine(
                        text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                        origin: Composition.LineOrigin(file: file, line: element.startLine + lines.count)))
                start = end + 1
            }
            return lines
        } ?? []
    }
}

/// The state of one composition: templates loaded so far and the build stage being written.
private struct CompositionSession {
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

    /// Every image the composed text names, in file order, read from the parts' own trees
    /// (BuildKit's rules for FROM, COPY --from and RUN --mount from=, as lint reads them), at
    /// their composed positions: the composed text is never parsed again.
    func imageMentions() -> [ImageMention] {
        var uses: [Composition.LineOrigin: [DockerfileDocument.ImageUse]] = [:]
        func collect(_ tree: DockerfileSyntaxTree, file: String, skippingFrom: Bool) {
            for use in DockerfileDocument(tree, readsRunScripts: false).imageUses(includingUnexpanded: true) {
                if skippingFrom, case .from = use.origin { continue }
                uses[Composition.LineOrigin(file: file, line: use.location.line), default: []].append(use)
            }
        }
        collect(stagefile.syntax, file: stagefile.displayPath, skippingFrom: false)
        // A base template's FROM is written anew; its image is taken where it is written.
        for template in templates.values {
            collect(template.syntax, file: composer.catalog.display(template.path), skippingFrom: true)
        }
        var mentions: [ImageMention] = []
        if let syntax {
            let location = SourceLocation(line: 1, column: "# syntax=".unicodeScalars.count + 1)
            mentions.append(
                ImageMention(
                    written: syntax.value, expanded: syntax.value, kind: .syntax, origin: stagefile.displayPath,
                    location: location))
        }
        for (index, blockIndex, line) in composedLines() {
            let number = index + 1
            // `scratch` is no image (BuildKit's empty base), as lint's image uses read it.
            if let image = line.fromImage, image.written.lowercased() != "scratch" {
                mentions.append(
                    ImageMention(
                        written: image.written, expanded: image.written, kind: .from, origin: blockOrigins[blockIndex],
                        location: SourceLocation(line: number, column: image.column)))
            }
            guard let origin = line.origin, let found = uses[origin] else { continue }
            for use in found {
                let kind: ImageMention.Kind
                switch use.origin {
                case .from: kind = .from
                case .copyFrom: kind = .copyFrom
                case .mountFrom: kind = .mountFrom
                }
                mentions.append(
                    ImageMention(
                        written: use.written, expanded: use.isExpanded ? use.reference : nil, kind: kind,
                        origin: blockOrigins[blockIndex], location: SourceLocation(line: number, column: use.location.column))
                )
            }
        }
        return mentions
    }

    /// Each build stage's apt package pins (the Stagefile's lines of that stage and every
    /// template placed in it, each part read once), the apt archives its templates declare
    /// (and those of the build stage it starts from), and where it adds apt sources that no
    /// template declares; with the pins written through a variable, which lock refuses.
    ///
    /// - Throws: `CompositionError` for an archive declaration whose values make no archive.
    func packageStages() throws(CompositionError) -> (
        stages: [Composition.PackageStage], variable: [(written: String, file: String, location: SourceLocation)]
    ) {
        let stagefilePath = Paths.absolute(composer.stagefileName, from: composer.stagefileDirectory)
        let stagefileDocument = DockerfileDocument(stagefile.syntax)
        let stagefileParts = stagefileDocument.packagePins(file: stagefile.displayPath, path: stagefilePath)
        let stagefileEdits = stagefileDocument.aptSourceEdits()
        var variable = stagefileParts.variable
        var templatePins: [String: [PackagePin]] = [:]
        var templateEdits: [String: [SourceLocation]] = [:]
        for template in templates.values.sorted(by: { $0.name < $1.name }) {
            let document = DockerfileDocument(template.syntax)
            let part = document.packagePins(file: composer.catalog.display(template.path), path: template.path)
            templatePins[template.name] = part.pins
            variable += part.variable
            templateEdits[template.name] = document.aptSourceEdits()
        }
        var stages: [Composition.PackageStage] = []
        var byAlias: [String: Int] = [:]
        for (index, record) in stageRecords.enumerated() {
            let end = index + 1 < stageRecords.count ? stageRecords[index + 1].stagefileStart : Int.max
            let inStage = { (line: Int) in line >= record.stagefileStart && line < end }
            var stage = Composition.PackageStage(
                name: record.alias ?? "\(index + 1)", image: record.image,
                pins: stagefileParts.pins.filter { inStage($0.location.line) })
            stage.sourceEdits = stagefileEdits.filter { inStage($0.line) }.map { (stagefile.displayPath, $0) }
            if let image = record.image?.lowercased(), let parent = byAlias[image] {
                stage.archives = stages[parent].archives
                stage.sourceEdits = stages[parent].sourceEdits + stage.sourceEdits
            }
            for placement in record.placements {
                let template = placement.template
                let file = composer.catalog.display(template.path)
                stage.pins += templatePins[template.name] ?? []
                if template.aptArchives.isEmpty {
                    stage.sourceEdits += (templateEdits[template.name] ?? []).map { (file, $0) }
                }
                for declaration in template.aptArchives {
                    do {
                        var archive = try declaration.archive(values: placement.values)
                        archive.declaredBy =
                            "stage template '\(template.name)' at \(stagefile.displayPath):\(placement.location.line):"
                            + "\(placement.location.column)"
                        stage.archives.append(archive)
                    } catch {
                        throw CompositionError(
                            "stage template '\(template.name)' declares an apt archive (\(file):\(declaration.line)) that "
                                + "these values do not make: \(error.reason)", file: stagefile.displayPath, at: placement.location
                        )
                    }
                }
            }
            if let alias = record.alias { byAlias[alias.lowercased()] = stages.count }
            stages.append(stage)
        }
        return (stages, variable)
    }

    /// The composed and the template's column of the image on each rewritten `FROM` line, by
    /// 0-based composed line index.
    func rewrittenColumns() -> [Int: (composed: Int, source: Int)] {
        var columns: [Int: (composed: Int, source: Int)] = [:]
        for (index, _, line) in composedLines() {
            if let image = line.fromImage { columns[index] = (image.column, image.sourceColumn) }
        }
        return columns
    }

    /// Each line of the blocks with its 0-based index in the composed text (after the header,
    /// one blank line between two blocks) and the index of its block.
    func composedLines() -> [(index: Int, block: Int, line: ComposedLine)] {
        var lines: [(index: Int, block: Int, line: ComposedLine)] = []
        var index = headerLineCount
        for (blockIndex, block) in blocks.enumerated() {
            if blockIndex > 0 { index += 1 }
            for line in block {
                lines.append((index, blockIndex, line))
                index += 1
            }
        }
        return lines
    }

    /// Where each line of the composed text comes from, in order (the header's lines and the
    /// provenance comments come from no file).
    func lineOrigins() -> [Composition.LineOrigin?] {
        let headerLines = headerLineCount
        var result = [Composition.LineOrigin?](repeating: nil, count: headerLines)
        for (index, block) in blocks.enumerated() {
            if index > 0 { result.append(nil) }
            result += block.map(\.origin)
        }
        return result
    }

    /// A relative WORKDIR after another, as the builder joins them: `/abs` and `sub` give `/abs/sub`.
    static func joined(_ directory: String, _ relative: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + relative
    }

    /// Refuses a build-stage alias used twice (names compare in any case): BuildKit rejects
    /// the file ("duplicate stage name"), as lint's SB015 says.
    mutating func noteAlias(_ alias: String?, at location: SourceLocation) throws(CompositionError) {
        guard let alias else { return }
        if let earlier = aliases[alias.lowercased()] {
            throw CompositionError(
                "build stage name '\(alias)' is used twice (also at line \(earlier.line)); BuildKit rejects a Dockerfile "
                    + "whose stages share a name, so rename one", file: stagefile.displayPath, at: location)
        }
        aliases[alias.lowercased()] = location
    }

    /// Warns when a template sets what another template already set in this build stage (the
    /// later one wins), and when a template parameter shadows an `ARG` of the Stagefile.
    mutating func noteOverrides(in template: StageTemplate, values: [String: BoundValue], file: String) {
        for instruction in template.syntax.instructions {
            guard let keyword = instruction.knownKeyword, Self.overridingKeywords.contains(keyword) else { continue }
            let path = keyword == .workdir ? instruction.arguments.first : nil
            if let earlier = stage.setters[keyword], earlier != template.name {
                let message: String
                if let path, !path.hasPrefix("/") {
                    // Dockerfile reference, "WORKDIR": a relative path is relative to the previous WORKDIR.
                    let combined = stage.workdir.map { " it is " + Self.joined($0, path) } ?? " it is relative to that one"
                    message =
                        "WORKDIR \(path) of stage template '\(template.name)' is relative, so after '\(earlier)'\(combined) "
                        + "(alone it is relative to its base image's WORKDIR, / by default)"
                } else {
                    message =
                        "\(keyword.rawValue) is set by stage template '\(earlier)' and again by '\(template.name)' in this "
                        + "build stage; '\(template.name)' comes later, so its \(keyword.rawValue) wins"
                }
                warnings.append(CompositionError(message, file: file, at: instruction.location))
            }
            stage.setters[keyword] = template.name
            if let path {
                let known = !path.contains("$")
                stage.workdir =
                    path.hasPrefix("/") ? (known ? path : nil) : stage.workdir.flatMap { known ? Self.joined($0, path) : nil }
            }
        }
        // A required parameter left unbound reads what the Stagefile's ARG gives: that is no shadow.
        for parameter in template.parameters
        where (stage.stagefileArguments.contains(parameter.name) || globalArguments.contains(parameter.name))
            && (values[parameter.name] != nil || !parameter.isRequired)
        {
            warnings.append(
                CompositionError(
                    "parameter \(parameter.name) of stage template '\(template.name)' shadows the Stagefile's ARG "
                        + "\(parameter.name): from the template's ARG on, the build sees the template's value",
                    file: file, at: parameter.location))
        }
    }

    /// Notes a Stagefile `USER`, `SHELL` or `WORKDIR` that the templates placed after it inherit:
    /// a user other than root, any shell, a relative folder (whose meaning depends on the base
    /// image's `WORKDIR`); an absolute `WORKDIR` or `USER root` ends the one before.
    mutating func noteStagefileSetting(_ instruction: Instruction, keyword: Keyword) {
        let text = escape.unquoted(instruction.arguments.joined(separator: " "))
        let isRoot = ["root", "0", "root:root", "0:0"].contains(text)
        let isDefaultShell = keyword == .shell && instruction.arguments == ["/bin/sh", "-c"]
        if (keyword == .user && isRoot) || (keyword == .workdir && text.hasPrefix("/")) || isDefaultShell {
            stage.stagefileSettings[keyword] = nil
        } else {
            // As written (a SHELL's JSON form too).
            let scalars = instruction.logicalLine.scalars
            let written = String(String.UnicodeScalarView(scalars[min(instruction.argumentsOffset, scalars.count)...]))
            stage.stagefileSettings[keyword] = ("\(instruction.keyword) \(written)", instruction.location)
        }
    }

    /// Warns when a template runs commands under a `USER`, `SHELL` or relative `WORKDIR` the
    /// Stagefile set before it, as compose warns between templates: a template's `apt-get` needs
    /// root, its `RUN` lines were written for `/bin/sh -c`, its relative paths for a known folder.
    mutating func noteStagefileSettings(before template: StageTemplate) {
        let instructions = template.syntax.instructions
        let keywords: [Keyword] = [.user, .shell, .workdir]
        for keyword in keywords {
            // An exec-form RUN runs no shell; it still runs as the user, in the folder.
            guard let setting = stage.stagefileSettings[keyword],
                let firstRun = instructions.firstIndex(where: {
                    $0.knownKeyword == .run && (keyword != .shell || !$0.isJSONForm)
                })
            else { continue }
            // The template sets its own before its first command: the Stagefile's does not reach it.
            if instructions[..<firstRun].contains(where: { $0.knownKeyword == keyword }) { continue }
            let effect =
                switch keyword {
                case .user: "its commands run as that user, and package installs (apt-get, apk) need root"
                case .shell: "its RUN lines run in that shell, not in the /bin/sh -c they were written for"
                default: "its relative paths land in a folder that depends on the base image's WORKDIR"
                }
            warnings.append(
                CompositionError(
                    "\(setting.text) comes before stage template '\(template.name)', which runs commands: \(effect); "
                        + "move it after the template, or set it in a template", file: stagefile.displayPath,
                    at: setting.location))
        }
        // The template's own settings take over from the Stagefile's.
        for keyword in keywords where instructions.contains(where: { $0.knownKeyword == keyword }) {
            stage.stagefileSettings[keyword] = nil
        }
    }

    /// Starts a new build stage, keeping the last one's `ENV` names and Stagefile settings under
    /// its alias.
    ///
    /// - Parameter base: The image or build stage the `FROM` names, as written.
    mutating func startBuildStage(from base: String?) {
        if let alias = stageRecords.last?.alias {
            finishedStages[alias.lowercased()] = (stage.environment, stage.stagefileSettings)
        }
        stage = BuildStageState()
        // A stage named through a global ARG (`FROM ${BASE}`) is the one its default names.
        guard let base = base.map({ BuildPlan.expand($0) { globalArgumentValues[$0] } }),
            let parent = finishedStages[base.lowercased()]
        else { return }
        stage.environment = parent.environment.mapValues { entry in
            var entry = entry
            entry.inheritedFrom = entry.inheritedFrom ?? base
            return entry
        }
        stage.stagefileSettings = parent.settings
    }

    /// Notes the names an `ENV` sets in this build stage, each value with the variables `known`
    /// gives in place (a template's `ENV NODE_ENV=${NODE_ENV}` holds its parameter's value).
    mutating func noteEnvironment(
        _ instruction: Instruction, place: String, byTemplate: Bool, known: [String: String] = [:]
    ) {
        for pair in instruction.asKeyValue?.pairs ?? [] {
            let value = BuildPlan.expand(escape.unquoted(pair.value.text)) { known[$0] ?? "${\($0)}" }
            stage.environment[pair.key.text] = EnvironmentEntry(place: place, byTemplate: byTemplate, value: value)
        }
    }

    /// Refuses an `ARG` with a value after an `ENV` of the same name in one build stage, unless
    /// both give the same text: BuildKit lets the later `ARG` win (`dockerfile2llb` `dispatchArg`
    /// adds it to the environment), buildah and podman keep the `ENV` (imagebuilder; Dockerfile
    /// reference, "ARG": "Environment variables defined using the ENV instruction always
    /// override an ARG instruction of the same name"), so the built image would depend on the
    /// builder.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - what: The `ARG` as the message names it, e.g. `parameter APP_DIR of stage template 'app'`.
    ///   - renamed: What the fix renames: `parameter` or `ARG`.
    ///   - value: Its value as the builder reads it.
    ///   - file: The file of the `ARG`.
    ///   - location: Where it declares the name.
    func refuseEnvironmentSplit(
        _ name: String, what: String, renamed: String, value: String, file: String, at location: SourceLocation
    ) throws(CompositionError) {
        guard let set = stage.environment[name], set.value != value else { return }
        let passedOn = set.inheritedFrom.map { ", which build stage \($0) passes on" } ?? " in this build stage"
        throw CompositionError(
            "\(what) comes after ENV \(name) (\(set.place))\(passedOn), so the builders disagree on "
                + "\(name) from here on: BuildKit reads the ARG's value (\(value)), buildah and podman keep the ENV's "
                + "(\(set.value)), as the Dockerfile reference says an ENV always overrides an ARG of the same name; "
                + "rename the \(renamed), or drop the ENV", file: file, at: location)
    }

    /// Refuses a template `ARG` with a value that an earlier `ENV` of its build stage shadows for
    /// some builders (``refuseEnvironmentSplit(_:what:renamed:value:file:at:)``), and notes the template's
    /// own `ENV` names, in the template's order.
    mutating func checkEnvironment(
        of template: StageTemplate, values: [String: BoundValue], file: String
    )
        throws(CompositionError)
    {
        // What each ARG of the template gives: the Stagefile's value, its default, or for a
        // required parameter left unbound the Stagefile's global ARG.
        var known: [String: String] = [:]
        for parameter in template.parameters {
            known[parameter.name] =
                values[parameter.name]?.value ?? parameter.defaultValue ?? globalArgumentValues[parameter.name]
        }
        var seenFrom = template.kind == .layer
        for instruction in template.syntax.instructions {
            if instruction.knownKeyword == .from { seenFrom = true }
            // The ARGs a base template's FROM reads go into the FROM, before any ENV.
            guard seenFrom else { continue }
            if instruction.knownKeyword == .env {
                noteEnvironment(instruction, place: "\(file):\(instruction.startLine)", byTemplate: true, known: known)
                continue
            }
            for declaration in instruction.asArg?.declarations ?? [] {
                let name = declaration.name.text
                guard let value = known[name] ?? declaration.defaultValue.map({ escape.unquoted($0.text) })
                else { continue }
                let kind = template.parameters.contains { $0.name == name } ? "parameter" : "ARG"
                try refuseEnvironmentSplit(
                    name, what: "\(kind) \(name) of stage template '\(template.name)'", renamed: kind, value: value,
                    file: file, at: instruction.location(of: declaration.word))
            }
        }
    }

    /// Writes the Stagefile's own lines collected since the last template as one block,
    /// labelled with where they come from unless they start with a comment of their own.
    mutating func flushStagefileLines() {
        defer { pending = [] }
        // An instruction left open at the end of the file holds the blank lines after it (BuildKit
        // counts them as its lines): they stay.
        let openAtEnd = pending.contains {
            if case .instruction(let instruction) = $0.kind { instruction.continuesPastEndOfFile } else { false }
        }
        let body = Self.trimmedBlock(
            pending.flatMap { ComposedLine.lines(of: $0, in: stagefile.displayPath) }, keepingTrailing: openAtEnd)
        guard let first = body.first else { return }
        let firstInstruction = pending.first { if case .instruction = $0.kind { true } else { false } }
        let line = firstInstruction?.startLine ?? pending[0].startLine
        let label = ComposedLine(text: "# [Stagefile] \(Self.commentSafe(composer.stagefileName)):\(line)", origin: nil)
        blocks.append(first.text.hasPrefix("#") ? body : [label] + body)
        blockOrigins.append(stagefile.displayPath)
    }

    /// How many lines the header takes, its blank line included.
    var headerLineCount: Int { header().utf8.filter { $0 == UInt8(ascii: "\n") }.count }

    func header() -> String {
        var lines: [String] = []
        if let syntax { lines.append("# syntax=\(syntax.value)") }
        if escape == .backtick { lines.append("# escape=`") }
        if let check = stagefile.syntax.directives.check { lines.append("# check=\(check)") }
        let sources = Self.commentSafe(composer.stagefileName) + (isLocked ? " and \(Lockfile.fileName)" : "")
        lines.append("# Generated by stagebuild compose (format \(Composer.formatVersion)) from \(sources). Do not edit.")
        lines.append("# Regenerate with: \(Self.commentSafe(composer.regenerateCommand))")
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// Text for a comment line with every control character written as an escape
    /// (``ControlCharacters``), so a path or command can never end the comment and start an
    /// instruction.
    static func commentSafe(_ text: String) -> String { ControlCharacters.escaped(text) }

    /// Lines with the leading and trailing blank ones removed (the trailing ones kept when
    /// `keepingTrailing`).
    static func trimmedBlock(_ lines: [ComposedLine], keepingTrailing: Bool = false) -> [ComposedLine] {
        let isBlank = { (line: ComposedLine) in line.text.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" } }
        guard let first = lines.firstIndex(where: { !isBlank($0) }), let last = lines.lastIndex(where: { !isBlank($0) }) else {
            return []
        }
        return Array(lines[first...(keepingTrailing ? lines.count - 1 : last)])
    }

    mutating func load(_ reference: Stagefile.Reference) throws(CompositionError) -> StageTemplate {
        if let template = templates[reference.name] { return template }
        let template: StageTemplate
        do {
            template = try composer.catalog.template(named: reference.name)
        } catch {
            switch error {
            case .malformed(let inner):
                throw inner
            case .unreadable(let path, let reason):
                throw CompositionError(reason, file: path, isReadFailure: true)
            default:
                throw nameError(error.description, reference)
            }
        }
        let templateEscape = template.syntax.directives.escapeCharacter
        if templateEscape != escape {
            throw CompositionError(
                "stage template '\(template.name)' uses the escape character \(templateEscape.rawValue) but "
                    + "\(stagefile.displayPath) uses \(escape.rawValue); its lines would be read differently, so it cannot be pasted in",
                file: stagefile.displayPath, at: reference.location)
        }
        if let value = template.syntax.directives.syntax {
            if let syntax, syntax.value != value {
                throw CompositionError(
                    "stage template '\(template.name)' asks for # syntax=\(value) but \(syntax.origin) asks for # syntax=\(syntax.value); "
                        + "a Dockerfile has one frontend", file: stagefile.displayPath, at: reference.location)
            }
            syntax = (value, template.name)
        }
        templates[reference.name] = template
        return template
    }

    /// An error about a template name: at the `# requires:` line that named it, or where the
    /// Stagefile names it.
    func nameError(_ message: String, _ reference: Stagefile.Reference) -> CompositionError {
        guard let line = reference.requiredAt else {
            return CompositionError(message, file: stagefile.displayPath, at: reference.location)
        }
        return CompositionError(message, file: line.file, at: line.location)
    }

    /// The reference to a template that `template` requires; values errors still point at the
    /// Stagefile line that brought `template` in.
    func requirement(_ name: String, of template: StageTemplate, reference: Stagefile.Reference) -> Stagefile.Reference {
        let line = Stagefile.RequiresLine(
            file: composer.catalog.display(template.path), location: SourceLocation(line: template.requiresLine, column: 1))
        return Stagefile.Reference(name: name, bindings: [], location: reference.location, requiredAt: line)
    }

    /// Removes the lint pragma comments directly above the next item from the Stagefile lines
    /// not yet written: they belong to the FROM that a `FROM stage:` line becomes.
    mutating func takeTrailingLintPragmas() -> [ComposedLine] {
        // As lint reads pragmas: every one in the comment lines directly above (other comments
        // between them do not end the run; a blank line does).
        var start = pending.endIndex
        while start > pending.startIndex, case .comment = pending[start - 1].kind { start -= 1 }
        let run = pending[start...]
        let pragmas = run.filter { LintPragma.isIgnorePragma($0.commentText ?? "") }
        pending = Array(pending[..<start]) + run.filter { !LintPragma.isIgnorePragma($0.commentText ?? "") }
        return pragmas.flatMap { ComposedLine.lines(of: $0, in: stagefile.displayPath) }
    }

    mutating func placeBase(
        _ reference: Stagefile.Reference, alias: String?, platform: String? = nil, pragmas: [ComposedLine] = []
    ) throws(CompositionError) {
        let template = try load(reference)
        guard template.kind == .base else {
            throw CompositionError(
                "'\(template.name)' is a layer template (it has no FROM); add it with USE \(template.name), after a FROM",
                file: stagefile.displayPath, at: reference.location)
        }
        stage.placed[template.name] = .base(template.name)
        try emit(template, reference: reference, alias: alias, platform: platform, requiredBy: nil, pragmas: pragmas)
        for name in template.requires.sorted() {
            let required = requirement(name, of: template, reference: reference)
            try placeLayer(required, requiredBy: template.name, path: [template.name])
        }
    }

    mutating func placeLayer(_ reference: Stagefile.Reference, requiredBy: String?, path: [String]) throws(CompositionError) {
        if let cycleStart = path.firstIndex(of: reference.name) {
            let cycle = (path[cycleStart...] + [reference.name]).joined(separator: " -> ")
            throw nameError("requires cycle: \(cycle)", reference)
        }
        let template = try load(reference)
        guard template.kind == .layer else {
            let message =
                requiredBy.map { "'\(template.name)' is a base template (it starts with FROM); '\($0)' cannot require it" }
                ?? "'\(template.name)' is a base template (it starts with FROM); start a build stage with FROM stage:\(template.name)"
            throw nameError(message, reference)
        }
        if let placedBy = stage.placed[template.name] {
            if requiredBy != nil { return }
            let fix =
                if case .required = placedBy { "move this USE before the template that requires it" } else {
                    "remove one of the two"
                }
            throw CompositionError(
                "'\(template.name)' is already in this build stage (\(placedBy)); each template appears once per build stage, "
                    + "so \(fix)", file: stagefile.displayPath, at: reference.location
            )
        }
        for name in template.requires.sorted() {
            let required = requirement(name, of: template, reference: reference)
            try placeLayer(required, requiredBy: template.name, path: path + [template.name])
        }
        stage.placed[template.name] = requiredBy.map(Placement.required) ?? .used(line: reference.location.line)
        try emit(template, reference: reference, alias: nil, requiredBy: requiredBy)
    }

    /// Writes one template's block: provenance comment, then the template's instructions and
    /// comments in their order, without its metadata header. A base template's `FROM` gets the
    /// alias (`AS` in the keyword's case, so BuildKit's FromAsCasing check stays quiet); each
    /// parameter's `ARG` stays where the template declares it, with the bound value in place of
    /// the default, because BuildKit evaluates a default and exposes the argument from there on.
    /// Ignore pragmas directly above the first instruction stay above it. The Stagefile's
    /// `FROM --platform=…` takes the place of the template's own `--platform`, if any.
    mutating func emit(
        _ template: StageTemplate, reference: Stagefile.Reference, alias: String?, platform: String? = nil,
        requiredBy: String?, pragmas stagefilePragmas: [ComposedLine] = []
    ) throws(CompositionError) {
        let values = try bind(template, reference: reference, requiredBy: requiredBy)
        for name in values.keys.sorted() {
            guard let value = values[name], !value.isFromLockfile else { continue }
            parameterBindings.append(
                Composition.ParameterBinding(
                    template: template.name, parameter: name, value: value.value, file: stagefile.displayPath,
                    location: value.location))
        }
        let relative = Paths.relative(template.path, from: composer.stagefileDirectory)
        let shown = composer.catalog.shownPath(of: template, from: composer.stagefileDirectory)
        let file = composer.catalog.display(template.path)
        noteOverrides(in: template, values: values, file: file)
        noteStagefileSettings(before: template)
        try checkEnvironment(of: template, values: values, file: file)
        var label = "# [\(template.name)] stage template \(Self.commentSafe(shown))"
        if let requiredBy { label += " (required by \(requiredBy))" }
        let fromParameters = try fromParameterValues(template, bound: values, reference: reference)
        var argumentValues = values
        for (name, value) in fromParameters { argumentValues[name] = value }
        recordPlacement(of: template, values: values, reference: reference)
        var body: [ComposedLine] = []
        var seenInstruction = false
        var seenFrom = template.kind == .layer
        var pragmas: [ComposedLine] = []
        for element in template.syntax.elements {
            switch element.kind {
            case .instruction(let instruction):
                // The ARG lines a base template's FROM reads: their values go into the FROM
                // itself (and into the build stage's `ARG NAME`), so no global ARG is left to
                // collide with another build stage's.
                if !seenFrom && instruction.knownKeyword == .arg { continue }
                if !seenInstruction { body += pragmas }
                seenInstruction = true
                let origin = Composition.LineOrigin(file: file, line: instruction.startLine)
                if let from = instruction.asFrom, let base = from.base {
                    seenFrom = true
                    // The flags as written, quotes kept; the template's FROM names its image alone.
                    var written = try instruction.writtenFlags.map { (flag) throws(CompositionError) in
                        try fromFlag(flag, of: template, values: fromParameters)
                    }
                    if let platform {
                        written.removeAll { $0.lowercased().hasPrefix("--platform=") }
                        written.insert(platform, at: 0)
                    }
                    let flags = written.map { $0 + " " }.joined()
                    let asKeyword = instruction.keyword == instruction.keyword.lowercased() ? "as" : "AS"
                    let prefix = "\(instruction.keyword) \(flags)"
                    let image = try fromImage(base.text, of: template, values: fromParameters, reference: reference)
                    if !stageRecords.isEmpty { stageRecords[stageRecords.count - 1].image = image }
                    let line = prefix + image + (alias.map { " \(asKeyword) \($0)" } ?? "")
                    body.append(
                        ComposedLine(
                            text: line, origin: origin,
                            fromImage: (image, prefix.unicodeScalars.count + 1, instruction.location(of: base).column)))
                } else if instruction.knownKeyword == .arg && !StageTemplate.declaresOnlyAutomaticArguments(instruction),
                    let line = try argumentLine(instruction, values: argumentValues)
                {
                    body.append(ComposedLine(text: line, origin: origin))
                } else {
                    body += ComposedLine.lines(of: element, in: file)
                }
            case .directive:
                continue
            case .comment:
                if seenInstruction {
                    body += ComposedLine.lines(of: element, in: file)
                } else if LintPragma.isIgnorePragma(element.commentText ?? "") {
                    // As lint reads them: metadata comments between a pragma and the first
                    // instruction do not end its run; a blank line does.
                    pragmas += ComposedLine.lines(of: element, in: file)
                }
            case .blank:
                if seenInstruction { body += ComposedLine.lines(of: element, in: file) } else { pragmas = [] }
            }
        }
        blocks.append([ComposedLine(text: label, origin: nil)] + stagefilePragmas + Self.trimmedBlock(body))
        blockOrigins.append(relative)
    }

    /// Notes a template placed in the current build stage with each parameter's value there:
    /// the bound value, else the default with its quotes removed.
    mutating func recordPlacement(of template: StageTemplate, values: [String: BoundValue], reference: Stagefile.Reference) {
        guard !stageRecords.isEmpty else { return }
        var plain: [String: String] = [:]
        for parameter in template.parameters {
            plain[parameter.name] = values[parameter.name]?.value ?? parameter.defaultValue
        }
        stageRecords[stageRecords.count - 1].placements.append((template, plain, reference.location))
    }

    /// The values of a base template's FROM parameters (``TemplateParameter/isInFrom``): the
    /// bound value, else the default, each as the word its build stage's `ARG NAME` gets.
    func fromParameterValues(
        _ template: StageTemplate, bound: [String: BoundValue], reference: Stagefile.Reference
    ) throws(CompositionError) -> [String: BoundValue] {
        var result: [String: BoundValue] = [:]
        for parameter in template.parameters where parameter.isInFrom {
            if let value = bound[parameter.name] {
                result[parameter.name] = value
            } else if let word = parameter.defaultWord, let value = parameter.defaultValue {
                result[parameter.name] = BoundValue(
                    name: parameter.name, word: word, location: reference.location, value: value)
            }
        }
        return result
    }

    /// A base template's FROM image with its parameters' values in place: it must read as one
    /// image reference, so a value can never add a word or a flag.
    func fromImage(
        _ written: String, of template: StageTemplate, values: [String: BoundValue], reference: Stagefile.Reference
    ) throws(CompositionError) -> String {
        guard written.contains("$") else { return written }
        let bad = values.values.first { value in
            !value.value.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-:/@".unicodeScalars.contains($0))
            }
        }
        let image = template.syntax.directives.escapeCharacter.expanded(written, values: values.mapValues(\.value))
        if let bad {
            throw CompositionError(
                "value of \(bad.name) goes into stage template '\(template.name)''s FROM image reference, which takes "
                    + "letters, digits and . _ - : / @ only", file: stagefile.displayPath, at: bad.location)
        }
        guard let image, (try? ImageReference(parsing: image)) != nil else {
            throw CompositionError(
                "stage template '\(template.name)''s FROM \(written) reads as \(image ?? written), which is no image "
                    + "reference", file: stagefile.displayPath, at: reference.location)
        }
        return image
    }

    /// A base template's FROM flag (`--platform=${PLAT}`) with the values of the parameters it
    /// reads in place, as in its image (their ARG lines are not written, so nothing else would
    /// give them); other references (`$BUILDPLATFORM`) stay as written.
    func fromFlag(
        _ written: String, of template: StageTemplate, values: [String: BoundValue]
    ) throws(CompositionError)
        -> String
    {
        let read = DockerfileDocument.references(in: written).compactMap { values[$0] }
        guard !read.isEmpty else { return written }
        if let bad = read.first(where: { value in
            !value.value.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-/,".unicodeScalars.contains($0))
            }
        }) {
            throw CompositionError(
                "value of \(bad.name) goes into stage template '\(template.name)''s FROM flag \(written), which takes "
                    + "letters, digits and . _ - / , only", file: stagefile.displayPath, at: bad.location)
        }
        return template.syntax.directives.escapeCharacter.expanded(
            written, values: values.mapValues(\.value), keepingQuotes: true) ?? written
    }

    /// A template's parameter `ARG` as composed: `nil` (keep it as written) when no name on it
    /// is bound, otherwise the line with each bound name's value in place of its default.
    func argumentLine(_ instruction: Instruction, values: [String: BoundValue]) throws(CompositionError) -> String? {
        let words = instruction.arguments.map { word in
            let name = String(word.prefix { $0 != "=" })
            return values[name].map { "\(name)=\($0.word)" } ?? word
        }
        guard words != instruction.arguments else { return nil }
        let line = "\(instruction.keyword) \(words.joined(separator: " "))"
        let length = line.utf8.count
        if length >= DockerfileParser.maximumLineLength,
            let bound = instruction.arguments.lazy.compactMap({
                values[String($0.prefix { $0 != "=" })]
            }).max(by: { $0.word.utf8.count < $1.word.utf8.count })
        {
            throw CompositionError(
                "value of \(bound.name) is \(bound.word.utf8.count) bytes once quoted, so its ARG line would be \(length) "
                    + "bytes; a Dockerfile line holds at most \(DockerfileParser.maximumLineLength - 1)",
                file: stagefile.displayPath, at: bound.location)
        }
        return line
    }

    /// A parameter value given in the Stagefile, quoted for the output.
    struct BoundValue {
        /// The parameter name.
        var name: String
        /// The value as a Dockerfile word, quoted so that BuildKit reads back the given text.
        var word: String
        /// Where the Stagefile binds it.
        var location: SourceLocation
        /// The value as given, unquoted.
        var value: String
        /// True for the lockfile's snapshot time, which the Stagefile did not give.
        var isFromLockfile = false
    }

    /// Checks the values a reference binds against the template's parameters and this build
    /// stage, and quotes them.
    ///
    /// - Returns: The bound values by parameter name; a parameter left at its default has none.
    mutating func bind(
        _ template: StageTemplate, reference: Stagefile.Reference, requiredBy: String?
    ) throws(CompositionError) -> [String: BoundValue] {
        var given: [String: Stagefile.Binding] = [:]
        for binding in reference.bindings {
            guard template.parameter(named: binding.name) != nil else {
                let known = template.parameters.map(\.name)
                let suggestions = NameSuggestions.closest(to: binding.name, in: known)
                let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
                let list = known.isEmpty ? "it has no parameters" : "its parameters: " + known.joined(separator: ", ")
                throw CompositionError(
                    "stage template '\(template.name)' has no parameter \(binding.name) (\(list))\(hint)",
                    file: stagefile.displayPath, at: binding.location)
            }
            if let earlier = given[binding.name], earlier.value != binding.value {
                throw CompositionError(
                    "\(binding.name) is given twice", file: stagefile.displayPath, at: binding.location)
            }
            given[binding.name] = binding
        }
        var fromLockfile: Set<String> = []
        for (parameter, time) in lockedSnapshots where given[parameter] == nil && template.parameter(named: parameter) != nil {
            given[parameter] = Stagefile.Binding(name: parameter, value: time, location: reference.location)
            fromLockfile.insert(parameter)
        }
        var values: [String: BoundValue] = [:]
        for parameter in template.parameters {
            let word: String
            if let binding = given[parameter.name] {
                do {
                    word = try WordQuoting.quoted(binding.value, escape: escape)
                } catch {
                    throw CompositionError(
                        "value of \(parameter.name) cannot be written as data", file: stagefile.displayPath, at: binding.location)
                }
                values[parameter.name] = BoundValue(
                    name: parameter.name, word: word, location: binding.location, value: binding.value,
                    isFromLockfile: fromLockfile.contains(parameter.name))
            } else if let defaultWord = parameter.defaultWord {
                word = defaultWord
            } else if globalArgumentValues[parameter.name] != nil && !parameter.isInFrom {
                // The template's `ARG NAME` reads the Stagefile's global ARG of that name, as a
                // build stage's ARG without a default reads a global one (Dockerfile reference,
                // "Understand how ARG and FROM interact").
                continue
            } else {
                var via =
                    requiredBy.map { " (it is required by '\($0)'; USE \(template.name) \(parameter.name)=… before it)" } ?? ""
                if parameter.isInFrom && globalArguments.contains(parameter.name) {
                    via +=
                        "; a global ARG does not reach a base template's FROM: bind it with FROM stage:\(template.name) "
                        + "\(parameter.name)=…"
                } else if globalArguments.contains(parameter.name) {
                    via += "; the Stagefile's global ARG \(parameter.name) has no value to give it"
                }
                throw CompositionError(
                    "stage template '\(template.name)' needs a value for its parameter \(parameter.name)\(via)",
                    file: stagefile.displayPath, at: reference.location)
            }
            // Values compare as the builder reads them, quotes removed: `3000` and `"3000"` agree.
            if let earlier = stage.values[parameter.name],
                escape.unquoted(earlier.value) != escape.unquoted(word)
            {
                throw CompositionError(
                    "parameter \(parameter.name) is \(earlier.value) in stage template '\(earlier.template)' but \(word) in "
                        + "'\(template.name)' within one build stage; give both the same value",
                    file: stagefile.displayPath, at: given[parameter.name]?.location ?? reference.location)
            }
            stage.values[parameter.name] = (word, template.name)
        }
        return values
    }
}

/// Why a template is in a build stage, for the error when it is named a second time.
enum Placement: CustomStringConvertible {
    /// It is the build stage's base (`FROM stage:NAME`).
    case base(String)
    /// A `USE` line of the Stagefile placed it.
    case used(line: Int)
    /// A template placed before it requires it.
    case required(by: String)

    /// How the error names it: `FROM stage:NAME`, `USE at line 4`, `required by web`.
    var description: String {
        switch self {
        case .base(let name): "FROM stage:\(name)"
        case .used(let line): "USE at line \(line)"
        case .required(let name): "required by \(name)"
        }
    }
}
