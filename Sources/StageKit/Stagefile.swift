import DockerfileSyntax

/// A project's spec: Dockerfile syntax plus `FROM stage:NAME [AS alias]`, which starts a build
/// stage from a base template, and `USE NAME [KEY=VALUE ...]`, which inserts a layer template
/// with parameter values quoted like `ENV` values.
public struct Stagefile: Sendable {
    /// A template reference with its position.
    public struct Reference: Sendable, Hashable {
        /// The template name.
        public var name: String
        /// Parameter values in the order written, quotes removed.
        public var bindings: [Binding]
        /// Where the reference is written.
        public var location: SourceLocation
        /// For a template pulled in by another's `requires`, where that line is: errors about
        /// the name itself point there; errors about values point at `location` in the Stagefile.
        public var requiredAt: RequiresLine?
    }

    /// A template's `# requires:` line.
    public struct RequiresLine: Sendable, Hashable {
        /// The requiring template's path, as shown to the user.
        public var file: String
        /// The line of `# requires:`.
        public var location: SourceLocation
    }

    /// One `KEY=VALUE` of a reference.
    public struct Binding: Sendable, Hashable {
        /// The parameter name.
        public var name: String
        /// The literal value.
        public var value: String
        /// Where the binding is written.
        public var location: SourceLocation
    }

    /// One part of a Stagefile in order.
    public enum Item: Sendable, Hashable {
        /// `FROM [--platform=…] stage:NAME [AS alias]`; the flag as written, quotes kept.
        case baseTemplate(Reference, alias: String?, platform: String?)
        /// `USE NAME KEY=VALUE…`.
        case layerTemplate(Reference)
        /// Any other element, copied as written.
        case element(SyntaxElement)
    }

    /// The path shown in messages.
    public var displayPath: String
    /// The parsed text.
    public var syntax: DockerfileSyntaxTree
    /// The items in file order.
    public var items: [Item]

    /// Reads a Stagefile.
    ///
    /// - Parameters:
    ///   - text: The Stagefile's text.
    ///   - displayPath: The path shown in errors.
    /// - Throws: `CompositionError` with file:line:column for syntax BuildKit rejects, a
    ///   `USE` without a name, a binding without `=`, an unbalanced quote, a value holding a
    ///   newline or NUL, and `FROM stage:` with flags or a malformed alias.
    public init(text: String, displayPath: String) throws(CompositionError) {
        self.displayPath = displayPath
        do {
            syntax = try DockerfileParser.parse(text)
        } catch {
            throw CompositionError(error.message, file: displayPath, at: error.location)
        }
        let escape = syntax.directives.escapeCharacter
        var items: [Item] = []
        for element in syntax.elements {
            guard case .instruction(let instruction) = element.kind else {
                items.append(.element(element))
                continue
            }
            let locate = instruction.lineMap.location(ofOffset:)
            // A last instruction left open by a continuation stays last in the composed file, where
            // nothing follows for it to swallow (BuildKit reads it to the end of the file).
            try Self.checkInstruction(instruction, file: displayPath)
            if instruction.isLayerTemplateReference {
                guard instruction.flags.isEmpty else {
                    throw CompositionError(
                        "USE takes no flags: USE NAME [KEY=VALUE ...]", file: displayPath,
                        at: locate(instruction.flagRanges.first?.lowerBound ?? 0))
                }
                let (reference, _) = try Self.reference(
                    instruction, isBase: false, escape: escape, locate: locate, file: displayPath)
                items.append(.layerTemplate(reference))
            } else if instruction.isBaseTemplateReference {
                // --platform chooses the build stage's platform (a $BUILDPLATFORM builder stage and
                // a target stage from one base template); no other flag means anything here.
                var platform: String?
                for index in instruction.flags.indices {
                    let (name, value) = instruction.flag(at: index)
                    guard name == "platform", value != nil, platform == nil, instruction.flagRanges.indices.contains(index)
                    else {
                        let at = instruction.flagRanges.indices.contains(index) ? instruction.flagRanges[index].lowerBound : 0
                        throw CompositionError(
                            "FROM stage: takes one flag, --platform=PLATFORM, passed to the base template's FROM",
                            file: displayPath, at: locate(at))
                    }
                    platform = instruction.writtenFlags[index]
                }
                let (reference, alias) = try Self.reference(
                    instruction, isBase: true, escape: escape, locate: locate, file: displayPath)
                items.append(.baseTemplate(reference, alias: alias, platform: platform))
            } else {
                items.append(.element(element))
            }
        }
        self.items = items
    }

    /// Refuses unknown instructions (with the closest known one) and template references that
    /// cannot work: `ONBUILD USE` and `ONBUILD FROM`. Templates and Stagefiles share this rule.
    ///
    /// - Parameters:
    ///   - instruction: A parsed instruction.
    ///   - file: The path shown in the error.
    /// - Throws: `CompositionError` at the keyword.
    static func checkInstruction(_ instruction: Instruction, file: String) throws(CompositionError) {
        if let message = unknownInstructionMessage(for: instruction) {
            throw CompositionError(message, file: file, at: instruction.location)
        }
        if let fault = (flagsWithoutValue(of: instruction) + unreadableFromWords(of: instruction)).first {
            throw CompositionError(fault.message, file: file, at: fault.location)
        }
        if let trigger = instruction.onbuildTrigger, [.use, .from, .onbuild].contains(trigger.knownKeyword) {
            throw CompositionError(
                "ONBUILD cannot trigger \(trigger.keyword); USE the template directly", file: file, at: instruction.location)
        }
    }

    /// The builder flags written without their value (`FROM --platform $BUILDPLATFORM …`,
    /// `COPY --from build …`): BuildKit stops at them ("missing a value on flag", its
    /// `instructions/bflag.go`); `--link`, `--parents` and `--keep-git-dir` stand alone.
    /// compose and lint (SB042) say the same.
    ///
    /// - Parameter instruction: A parsed instruction.
    /// - Returns: Each such flag's message and place.
    static func flagsWithoutValue(of instruction: Instruction) -> [(message: String, location: SourceLocation)] {
        // The flags of the Dockerfile reference that take a value (an unknown flag is another fault).
        let takingValues: Set<String> = [
            "platform", "from", "mount", "network", "security", "chown", "chmod", "checksum", "exclude", "interval",
            "timeout", "start-period", "start-interval", "retries",
        ]
        return instruction.flags.enumerated().compactMap { index, flag in
            let (name, value) = instruction.flag(at: index)
            guard value == nil, takingValues.contains(name.lowercased()) else { return nil }
            let offset = instruction.flagRanges.indices.contains(index) ? instruction.flagRanges[index].lowerBound : 0
            return (
                "\(instruction.kind) \(flag) has no value: write it \(flag)=VALUE, as BuildKit reads flags (\"missing a "
                    + "value on flag\"); \(instruction.kind) would otherwise not build",
                instruction.lineMap.location(ofOffset: offset)
            )
        }
    }

    /// The stage or image names written so that no builder reads them as meant: a `COPY --from` or
    /// `RUN --mount=…,from=` holding a variable reference, which BuildKit refuses (Dockerfile
    /// frontend 1.18 and later, `dockerfile2llb/convert.go`: "variable expansion is not supported
    /// for --from"; its stage graph is built from the words as written) and buildah looks up as
    /// written, finding no stage of that name; and a quoted `COPY --from` image, which BuildKit's
    /// flag reader unquotes but `compose --locked` cannot replace with its pinned reference.
    /// compose, lock and lint (SB041) say the same.
    ///
    /// - Parameter instruction: A parsed instruction.
    /// - Returns: Each such word's message and place.
    static func unreadableFromWords(of instruction: Instruction) -> [(message: String, location: SourceLocation)] {
        var words: [(flag: String, word: InstructionWord)] = []
        if let copy = instruction.asCopy, let from = copy.from { words.append(("\(instruction.kind) --from", from)) }
        for mount in instruction.asRun?.mounts ?? [] {
            if let from = mount.from { words.append(("RUN --mount from", from)) }
        }
        var faults: [(message: String, location: SourceLocation)] = []
        for (flag, word) in words where !DockerfileDocument.references(in: word.text).isEmpty {
            faults.append(
                (
                    "\(flag)=\(word.text) names its stage through a variable, which builders do not expand there "
                        + "(BuildKit: \"variable expansion is not supported for --from\"; buildah finds no stage of "
                        + "that name): name the stage itself, or for a choice made by a build argument, add a stage "
                        + "FROM ${ARG} AS name after a global ARG and copy --from=name",
                    instruction.location(of: word)
                ))
        }
        // The flags as written, quotes kept: a quoted `--from=` or mount `from=`.
        for (index, (flag, written)) in zip(instruction.flags, instruction.writtenFlags).enumerated()
        where instruction.flagRanges.indices.contains(index) {
            let quotedFrom: Bool
            if instruction.asCopy != nil && flag.hasPrefix("--from=") {
                quotedFrom = written.contains { $0 == "\"" || $0 == "'" }
            } else if instruction.knownKeyword == .run && flag.hasPrefix("--mount=") {
                quotedFrom = written.lowercased().contains("from=\"") || written.lowercased().contains("from='")
            } else {
                quotedFrom = false
            }
            guard quotedFrom else { continue }
            faults.append(
                (
                    "\(instruction.kind) \(written) is quoted: write the stage or image name without quotes, "
                        + "as every other place that reads it does (compose --locked cannot put a pinned reference "
                        + "in place of a quoted one)",
                    instruction.lineMap.location(ofOffset: instruction.flagRanges[index].lowerBound)
                ))
        }
        return faults
    }

    /// "unknown instruction COPPY; did you mean COPY?" for a keyword that is no `Keyword`;
    /// `nil` for a known one. compose and lint (SB017) say the same.
    ///
    /// - Parameter instruction: A parsed instruction.
    static func unknownInstructionMessage(for instruction: Instruction) -> String? {
        guard instruction.knownKeyword == nil else { return nil }
        let known = Keyword.allCases.map(\.rawValue)
        let hint = NameSuggestions.closest(to: instruction.kind, in: known, limit: 1).first.map { "; did you mean \($0)?" } ?? ""
        return "unknown instruction \(instruction.keyword)\(hint)"
    }

    /// Reads `USE NAME [KEY=VALUE ...]` or `FROM stage:NAME [AS alias] [KEY=VALUE ...]` from the
    /// instruction's typed view (``Instruction/templateReference()``), and checks each value is
    /// data on one line.
    private static func reference(
        _ instruction: Instruction, isBase: Bool, escape: EscapeCharacter, locate: (Int) -> SourceLocation, file: String
    ) throws(CompositionError) -> (Reference, alias: String?) {
        let form = isBase ? "FROM stage:NAME [AS alias] [KEY=VALUE ...]" : "USE NAME [KEY=VALUE ...]"
        let read: TemplateReference?
        do {
            read = try instruction.templateReference()
        } catch {
            switch error {
            case .noName: throw CompositionError("USE needs a template name: \(form)", file: file, at: locate(0))
            case .noAlias(let word):
                throw CompositionError("expected \(form)", file: file, at: instruction.location(of: word))
            case .notABinding(let word, let offset):
                throw CompositionError(
                    "expected KEY=VALUE after the template name, found '\(word.text)' (\(form))", file: file, at: locate(offset))
            case .badValue(let key, let message, let offset):
                throw CompositionError("value of \(key): \(message)", file: file, at: locate(offset))
            }
        }
        guard let read else { throw CompositionError("expected \(form)", file: file, at: instruction.location) }
        var bindings: [Binding] = []
        for binding in read.bindings {
            do {
                _ = try WordQuoting.quoted(binding.value, escape: escape)
            } catch {
                // Quotes and escapes never make or remove one, so the first one in the value
                // is the first one in the word as written.
                let written = binding.writtenValue.unicodeScalars
                let first = written.firstIndex { $0 == "\n" || $0 == "\r" || $0 == "\0" }
                let at = first.map { written.distance(from: written.startIndex, to: $0) } ?? 0
                throw CompositionError(
                    "value of \(binding.key) holds a newline, carriage return or NUL; parameter values are data on one line",
                    file: file, at: locate(binding.valueOffset + at))
            }
            bindings.append(
                Binding(
                    name: binding.key, value: binding.value,
                    location: locate(binding.word.range?.lowerBound ?? instruction.argumentsOffset)))
        }
        return (
            Reference(name: read.name, bindings: bindings, location: instruction.location(of: read.nameWord)),
            read.alias?.text
        )
    }
}
