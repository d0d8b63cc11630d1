import DockerfileSyntax

/// A composed Dockerfile as builders plan it: its build stages, each with its base and the
/// steps its instructions become, each step with what each builder's cache key for it is made
/// of (`docs/cache-rules.md`). Read from the composition's own text and line origins, so every
/// step knows the template or Stagefile line that wrote it.
public struct BuildPlan: Sendable {
    /// One build stage.
    public struct Stage: Sendable {
        /// Its name as messages show it: the alias as written, or `#N` counted from 1.
        public var name: String
        /// Its name as builders compare it: the alias in lower case, or `#N`.
        public var key: String
        /// What it starts from.
        public var base: Base
        /// The composed line of its `FROM`.
        public var line: Int
        /// The template or Stagefile line that wrote its `FROM`.
        public var origin: Composition.LineOrigin?
        /// Its instructions after `FROM`, in order.
        public var steps: [BuildStep]
    }

    /// What a build stage starts from.
    public enum Base: Sendable, Hashable {
        /// An image, its reference with variables expanded (pinned when a lockfile pinned it).
        case image(String)
        /// An earlier build stage, by its key.
        case stage(String)
        /// `scratch`: nothing.
        case scratch
    }

    /// The build stages in file order.
    public var stages: [Stage]

    /// A plan of the given build stages.
    ///
    /// - Parameter stages: The build stages.
    public init(stages: [Stage]) {
        self.stages = stages
    }

    /// Plans a composed Dockerfile.
    ///
    /// - Parameters:
    ///   - text: The composed Dockerfile.
    ///   - lineOrigins: The origin of each of its lines (`Composition.lineOrigins`).
    /// - Throws: `DockerfileSyntaxError` when the text does not parse.
    public init(text: String, lineOrigins: [Composition.LineOrigin?]) throws(DockerfileSyntaxError) {
        let document = DockerfileDocument(try DockerfileParser.parse(text), readsRunScripts: false)
        var globals: [String: String] = [:]
        var stages: [Stage] = []
        var finalStates: [String: StageState] = [:]
        var earlier: [String: String] = [:]
        for stage in document.stages {
            guard let from = stage.from, let fromView = from.instruction.asFrom else {
                // The global arguments, before the first FROM.
                for entryIndex in stage.entryIndices {
                    for declaration in document.entries[entryIndex].instruction.asArg?.declarations ?? [] {
                        let value = declaration.defaultValue.map { document.unquoted($0.text) }
                        globals[declaration.name.text] =
                            value.map { Self.expand($0) { globals[$0] } } ?? globals[declaration.name.text]
                    }
                }
                continue
            }
            let number = stages.count + 1
            let writtenAlias = fromView.alias?.text
            let key = writtenAlias?.lowercased() ?? "#\(number)"
            let written = fromView.base.map { document.unquoted($0.text) } ?? ""
            let expandedBase = Self.expand(written) { globals[$0] }
            var state = StageState()
            let base: Base
            if expandedBase.lowercased() == "scratch" {
                base = .scratch
            } else if let parent = finalStates[expandedBase.lowercased()] {
                base = .stage(expandedBase.lowercased())
                state = parent.inherited()
            } else {
                base = .image(expandedBase)
            }
            let origin = { (line: Int) in line >= 1 && line <= lineOrigins.count ? lineOrigins[line - 1] : nil }
            var steps: [BuildStep] = []
            for entryIndex in stage.entryIndices {
                let instruction = document.entries[entryIndex].instruction
                let line = instruction.startLine
                // A heredoc's body is part of what the builder runs or copies.
                let text = ([instruction.logicalLine] + instruction.heredocs.map(\.content)).joined(separator: "\n")
                var step = state.step(for: instruction, text: text, unquote: document.unquoted, earlierStages: earlier)
                step.origin = origin(line)
                steps.append(step)
                state.apply(instruction, line: line, globals: globals, unquote: document.unquoted)
            }
            finalStates[key] = state
            // `--from=` names an earlier build stage by its alias or by its number from 0.
            earlier[key] = key
            earlier[String(stages.count)] = key
            stages.append(
                Stage(
                    name: writtenAlias ?? "#\(number)", key: key, base: base, line: from.instruction.startLine,
                    origin: origin(from.instruction.startLine), steps: steps))
        }
        self.stages = stages
    }

    /// Expands a word as BuildKit does, a variable without a value standing for nothing.
    static func expand(_ text: String, lookup: (String) -> String?) -> String {
        DockerfileDocument.expand(text) { .known(lookup($0) ?? "") } ?? text
    }
}

/// What the instructions of a build stage so far leave for the next one to see: variables,
/// user, working folder and shell.
struct StageState: Sendable {
    /// `ENV` values.
    var environment: [String: String] = [:]
    /// `ARG` names declared in the build stage, in order, with their values (`nil`: none).
    var arguments: [(name: String, value: String?)] = []
    /// The composed line that gave each variable its value.
    var lines: [String: Int] = [:]
    /// `USER`, root before any.
    var user = "root"
    /// `WORKDIR`, `/` before any.
    var workingDirectory = "/"
    /// `SHELL`, `/bin/sh -c` before any.
    var shell = "/bin/sh -c"

    /// What a build stage that starts from this one inherits: the image configuration
    /// (environment, user, working folder, shell), not the arguments.
    func inherited() -> StageState {
        var state = StageState()
        state.environment = environment
        state.lines = lines.filter { environment[$0.key] != nil }
        state.user = user
        state.workingDirectory = workingDirectory
        state.shell = shell
        return state
    }

    /// A variable's value as an instruction sees it: `ENV` wins over `ARG` (Dockerfile
    /// reference, "Using ARG variables").
    func value(of name: String) -> String? {
        environment[name] ?? arguments.last { $0.name == name }?.value ?? nil
    }

    /// The variables a `RUN` sees in its environment, by name.
    var runEnvironment: [String: String] {
        var values = environment
        for argument in arguments {
            if let value = argument.value, environment[argument.name] == nil { values[argument.name] = value }
        }
        return values
    }

    /// The step an instruction becomes, seen from this state.
    func step(
        for instruction: Instruction, text: String, unquote: (String) -> String, earlierStages: [String: String]
    ) -> BuildStep {
        let keyword = instruction.kind
        var buildKit: [CacheKeyPart] = [.text(text)]
        var buildah: [CacheKeyPart] = [.text(text)]
        var lines: [String: Int] = [:]
        var addsLayerInBuildKit = false
        var addsLayerInBuildah = false
        func seen(_ names: [String]) -> [CacheKeyPart] {
            names.sorted().map { name in
                if let line = self.lines[name] { lines[name] = line }
                return .variable(name: name, value: value(of: name))
            }
        }
        switch Keyword(written: instruction.keyword) {
        case .run?:
            addsLayerInBuildKit = true
            addsLayerInBuildah = true
            let environment = runEnvironment
            buildKit += seen(Array(environment.keys))
            buildKit += [.user(user), .workingDirectory(workingDirectory)]
            if !instruction.isJSONForm { buildKit.append(.shell(shell)) }
            // BuildKit keys a bind mount by the files it shows; buildah 1.28 records only the
            // command, so a changed mounted file is no miss there (docs/cache-rules.md).
            for mount in instruction.asRun?.mounts ?? [] where mount.type == "bind" {
                if let from = mount.from.map({ unquote($0.text) }) {
                    if let stage = earlierStages[from.lowercased()] { buildKit.append(.stageFiles(stage)) }
                } else {
                    let source = BuildPlan.expand(mount.option("source") ?? mount.option("src") ?? ".") { value(of: $0) }
                    buildKit.append(.contextFiles(source))
                }
            }
            // buildah records the build arguments declared in the stage, an ENV of the same
            // name giving the value (imagebuildah's getBuildArgsResolvedForRun).
            buildah += arguments.map(\.name).filter { value(of: $0) != nil }.sorted().map {
                .variable(name: $0, value: value(of: $0))
            }
        case .copy?, .add?:
            addsLayerInBuildKit = true
            addsLayerInBuildah = true
            let copy = instruction.asCopy
            buildKit += seen(DockerfileDocument.references(in: text))
            if let destination = copy?.destination.map({ unquote($0.text) }), !destination.hasPrefix("/") {
                buildKit.append(.workingDirectory(workingDirectory))
            }
            if let from = copy?.from.map({ unquote($0.text) }) {
                let expanded = BuildPlan.expand(from) { value(of: $0) }
                if let stage = earlierStages[expanded.lowercased()] {
                    buildKit.append(.stageFiles(stage))
                    buildah.append(.stageFiles(stage))
                }
            } else {
                for source in copy?.sources ?? [] {
                    let expanded = BuildPlan.expand(unquote(source.text)) { value(of: $0) }
                    guard !expanded.contains("://"), !expanded.hasPrefix("git@") else { continue }
                    buildKit.append(.contextFiles(expanded))
                    buildah.append(.contextFiles(expanded))
                }
            }
        case .workdir?:
            let path = instruction.singleValue.map { unquote($0.text) } ?? ""
            let joined = Paths.absolute(BuildPlan.expand(path) { value(of: $0) }, from: workingDirectory)
            addsLayerInBuildKit = joined != "/"
            buildKit += seen(DockerfileDocument.references(in: text)) + [.workingDirectory(workingDirectory), .user(user)]
        case .arg?:
            buildKit += seen(DockerfileDocument.references(in: text))
            // buildah records only the names of the stage's arguments (getBuildArgsKey).
            var names = Set(arguments.map(\.name))
            for declaration in instruction.asArg?.declarations ?? [] { names.insert(declaration.name.text) }
            buildah = [.text("ARG " + names.sorted().joined(separator: " "))]
        case .env?, .label?, .expose?, .user?, .volume?, .stopsignal?:
            buildKit += seen(DockerfileDocument.references(in: text))
        default:
            break
        }
        return BuildStep(
            instruction: instruction, keyword: keyword, text: text, line: instruction.startLine, origin: nil,
            addsLayerInBuildKit: addsLayerInBuildKit, addsLayerInBuildah: addsLayerInBuildah, buildKitKey: buildKit,
            buildahKey: buildah, variableLines: lines)
    }

    /// Takes in what an instruction sets for the ones after it.
    mutating func apply(
        _ instruction: Instruction, line: Int, globals: [String: String], unquote: (String) -> String
    ) {
        switch Keyword(written: instruction.keyword) {
        case .arg?:
            for declaration in instruction.asArg?.declarations ?? [] {
                let name = declaration.name.text
                let value: String? =
                    if let written = declaration.defaultValue {
                        BuildPlan.expand(unquote(written.text)) { self.value(of: $0) }
                    } else {
                        globals[name]
                    }
                arguments.append((name, value))
                lines[name] = line
            }
        case .env?:
            for pair in instruction.asKeyValue?.pairs ?? [] {
                let name = pair.key.text
                environment[name] = BuildPlan.expand(unquote(pair.value.text)) { self.value(of: $0) }
                lines[name] = line
            }
        case .user?:
            user = instruction.asUser.map { BuildPlan.expand(unquote($0.word.text)) { self.value(of: $0) } } ?? user
        case .workdir?:
            let path = instruction.singleValue.map { BuildPlan.expand(unquote($0.text)) { self.value(of: $0) } } ?? ""
            // Joined to the one before it, as the Dockerfile reference says.
            workingDirectory = Paths.absolute(path, from: workingDirectory)
        case .shell?:
            if case .exec(let words)? = instruction.command { shell = words.map(\.text).joined(separator: " ") }
        default:
            break
        }
    }
}
