import DockerfileSyntax
import Serialization

// What the Stagefile and the templates set in a build stage, and the refusals and warnings
// when they would collide.
extension CompositionSession {
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

    /// A relative WORKDIR after another, as the builder joins them: `/abs` and `sub` give `/abs/sub`.
    static func joined(_ directory: String, _ relative: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + relative
    }
}
