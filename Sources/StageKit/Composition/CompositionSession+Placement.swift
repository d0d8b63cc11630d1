import DockerfileSyntax
import Serialization

// Templates loaded, ordered by `requires`, and placed in their build stage.
extension CompositionSession {
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
                        written = written.indices.filter { instruction.flag(at: $0).name.lowercased() != "platform" }.map {
                            written[$0]
                        }
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
