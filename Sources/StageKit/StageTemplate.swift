import DockerfileSyntax
import Foundation
import Serialization

/// One stage template: a Dockerfile fragment in a catalog, e.g. `Stages/node-runtime.Dockerfile`.
///
/// Its metadata lives in the leading comment block so that the file stays a valid Dockerfile:
/// `# summary: …`, `# requires: a, b`, one `# param NAME: …` per parameter and one
/// `# apt-archive: …` per apt archive it adds (``AptArchiveDeclaration``). Its parameters
/// are its `ARG` lines. A *base* template starts with `FROM` (after the `ARG` lines its `FROM`
/// reads, e.g. `ARG DEBIAN_RELEASE=bookworm` before `FROM debian:${DEBIAN_RELEASE}-slim`); a
/// *layer* template has no `FROM`.
public struct StageTemplate: Sendable, Hashable {
    /// Whether the template starts a build stage or adds steps to one.
    public enum Kind: String, Sendable, Hashable {
        /// Starts with `FROM`; used as `FROM stage:NAME`.
        case base
        /// Has no `FROM`; used as `USE NAME`.
        case layer
    }

    /// The name: the file name without `.Dockerfile`.
    public var name: String
    /// Base or layer.
    public var kind: Kind
    /// The one-line summary.
    public var summary: String
    /// The layer templates that must come before this one in the same build stage.
    public var requires: [String]
    /// The parameters in declaration order.
    public var parameters: [TemplateParameter]
    /// The absolute path of the file.
    public var path: String
    /// The parsed file.
    public var syntax: DockerfileSyntaxTree
    /// The line where each `requires` name is written, for error messages.
    var requiresLine: Int
    /// The SHA-256 of the file's bytes (UTF-8 text as read, byte order mark included): what
    /// `stagebuild.lock` records to notice a changed template.
    public var contentDigest: Digest
    /// The apt archives the template adds to its build stage (`# apt-archive: …` lines).
    public var aptArchives: [AptArchiveDeclaration]

    /// The parameter with a name, if the template declares it.
    ///
    /// - Parameter name: An `ARG` name.
    public func parameter(named name: String) -> TemplateParameter? {
        parameters.first { $0.name == name }
    }

    /// Reads a template file.
    ///
    /// - Parameters:
    ///   - name: The template name.
    ///   - text: The file's text.
    ///   - path: The absolute path, kept for provenance.
    ///   - displayPath: The path to show in errors.
    /// - Throws: `CompositionError` for a file BuildKit would reject, a `FROM` that is not
    ///   first or appears twice in a base template, parameters before or inside `FROM`,
    ///   metadata that names no `ARG`, and a last instruction left open by a line continuation.
    public init(name: String, text: String, path: String, displayPath: String) throws(CompositionError) {
        let tree: DockerfileSyntaxTree
        do {
            tree = try DockerfileParser.parse(text)
        } catch {
            throw CompositionError(error.message, file: displayPath, at: error.location)
        }
        self.name = name
        self.path = path
        self.syntax = tree
        self.contentDigest = Digest.sha256(of: text.utf8)
        var metadata = TemplateMetadata()
        for element in tree.elements {
            if case .instruction = element.kind { break }
            if let comment = element.commentText { metadata.read(comment, line: element.startLine) }
        }
        summary = metadata.summary
        requires = metadata.requires
        requiresLine = metadata.requiresLine

        let instructions = tree.instructions
        try Self.checkInstructions(instructions, file: displayPath)
        kind = instructions.contains { $0.knownKeyword == .from } ? .base : .layer
        let from = try Self.checkBaseFrom(of: instructions, escape: tree.directives.escapeCharacter, file: displayPath)
        for instruction in instructions where instruction.isTemplateReference {
            throw CompositionError(
                "a stage template cannot use other templates with \(instruction.keyword); name them in '# requires:'",
                file: displayPath, at: instruction.location)
        }
        parameters = try Self.parameters(
            of: instructions, from: from, metadata: metadata, escape: tree.directives.escapeCharacter, file: displayPath)
        for (documented, line) in metadata.documentationLines where !parameters.contains(where: { $0.name == documented }) {
            throw CompositionError(
                "'# param \(documented)' documents a parameter the template does not declare with ARG",
                file: displayPath, at: SourceLocation(line: line, column: 1))
        }
        let names = Set(parameters.map(\.name))
        var archives: [AptArchiveDeclaration] = []
        for (text, line) in metadata.aptArchives {
            archives.append(try AptArchiveDeclaration(parsing: text, line: line, parameters: names, file: displayPath))
        }
        aptArchives = archives
    }

    /// Refuses an instruction BuildKit rejects and a last instruction left open by a line
    /// continuation.
    private static func checkInstructions(_ instructions: [Instruction], file: String) throws(CompositionError) {
        for instruction in instructions { try Stagefile.checkInstruction(instruction, file: file) }
        // A last instruction left open by a line continuation ends only at the end of the file;
        // pasted into a composed file it would swallow the instruction after it.
        if let last = instructions.last, last.heredocs.isEmpty, last.continuesPastEndOfFile {
            throw CompositionError.openContinuation(last, file: file)
        }
    }

    /// A base template's `FROM`: where it is and the parameters declared before it, which it
    /// may read (global ARGs, as the Dockerfile reference's "Understand how ARG and FROM
    /// interact" has it).
    private struct BaseFrom {
        var index: Int
        var arguments: Set<String>
    }

    /// Checks a base template's `FROM`: first but for the `ARG`s it reads, the only one, one
    /// image without `AS`, reading only parameters declared before it. `nil` for a layer template.
    private static func checkBaseFrom(
        of instructions: [Instruction], escape: EscapeCharacter, file: String
    ) throws(CompositionError) -> BaseFrom? {
        let fromInstructions = instructions.filter { $0.knownKeyword == .from }
        guard let fromIndex = instructions.firstIndex(where: { $0.knownKeyword == .from }), let from = fromInstructions.first
        else { return nil }
        guard instructions[..<fromIndex].allSatisfy({ $0.knownKeyword == .arg }) else {
            throw CompositionError(
                "a base template must start with FROM, after only the ARG lines its FROM reads; its other parameters "
                    + "(ARG) go after the FROM line",
                file: file, at: instructions[0].location)
        }
        if fromInstructions.count > 1 {
            throw CompositionError(
                "a stage template holds one build stage; this is a second FROM", file: file, at: fromInstructions[1].location)
        }
        var arguments: Set<String> = []
        for instruction in instructions[..<fromIndex] {
            arguments.formUnion(instruction.asArg?.declarations.map(\.name.text) ?? [])
        }
        let view = from.asFrom
        let extra = view?.asKeyword ?? view?.otherWords.first
        if view?.base == nil || extra != nil {
            throw CompositionError(
                "a base template's FROM names one image without AS, e.g. FROM debian:bookworm-slim",
                file: file, at: (extra ?? view?.base).map(from.location(of:)) ?? from.location)
        }
        if let base = view?.base, base.text.contains("$") {
            let placeholders = Dictionary(uniqueKeysWithValues: arguments.map { ($0, "x") })
            guard let expanded = escape.expanded(base.text, values: placeholders), !expanded.contains("$") else {
                throw CompositionError(
                    "a base template's FROM reads only the parameters declared before it, as ${NAME} or $NAME "
                        + "(ARG NAME=DEFAULT above the FROM line)",
                    file: file, at: from.location(of: base))
            }
        }
        return BaseFrom(index: fromIndex, arguments: arguments)
    }

    /// The template's parameters: each `ARG` it declares with its default as the builder reads
    /// it (quotes removed, references as written), but the automatic build arguments and a
    /// `FROM` parameter declared again after `FROM` to be read in the build stage.
    private static func parameters(
        of instructions: [Instruction], from: BaseFrom?, metadata: TemplateMetadata, escape: EscapeCharacter,
        file: String
    ) throws(CompositionError) -> [TemplateParameter] {
        var parameters: [TemplateParameter] = []
        for (index, instruction) in instructions.enumerated() {
            let isBeforeFrom = from.map { index < $0.index } ?? false
            for declaration in instruction.asArg?.declarations ?? [] {
                let at = instruction.location(of: declaration.name)
                let name = declaration.name.text
                let defaultWord = declaration.defaultValue?.text
                // `ARG NAME` after FROM makes a FROM parameter visible in the build stage.
                if !isBeforeFrom && from?.arguments.contains(name) == true {
                    guard defaultWord == nil else {
                        throw CompositionError(
                            "parameter \(name) is declared before FROM with its default; declare it again after FROM "
                                + "without one (ARG \(name)) to read it in the build stage",
                            file: file, at: at)
                    }
                    continue
                }
                if automaticArguments.contains(name) {
                    if defaultWord != nil {
                        throw CompositionError(
                            "\(name) is an automatic build argument, which BuildKit sets itself: declare it without a default "
                                + "(ARG \(name)); with a default it would become a template parameter",
                            file: file, at: at)
                    }
                    if declaresOnlyAutomaticArguments(instruction) { continue }
                    throw CompositionError(
                        "\(name) is an automatic build argument, which BuildKit sets itself; declare it on an ARG line of "
                            + "its own (ARG \(name)) so it stays a build argument, not a template parameter",
                        file: file, at: at)
                }
                guard TemplateMetadata.isParameterName(name) else {
                    throw CompositionError(
                        "parameter name '\(name)' must be letters, digits and _ and not start with a digit", file: file, at: at)
                }
                if parameters.contains(where: { $0.name == name }) {
                    throw CompositionError("parameter \(name) is declared twice", file: file, at: at)
                }
                parameters.append(
                    TemplateParameter(
                        name: name, defaultWord: defaultWord, defaultValue: defaultWord.map(escape.unquoted),
                        documentation: metadata.documentation[name] ?? "", location: at, isInFrom: isBeforeFrom))
            }
        }
        return parameters
    }
}

extension StageTemplate {
    /// Build arguments BuildKit sets or reads by itself: the platform arguments, the predefined
    /// proxy arguments and `SOURCE_DATE_EPOCH` (Dockerfile reference, "Automatic platform ARGs in
    /// the global scope", "Predefined ARGs" and "BuildKit built-in build args"). A template
    /// declares them to use them, never as parameters.
    public static let automaticArguments: Set<String> = [
        "TARGETPLATFORM", "TARGETOS", "TARGETARCH", "TARGETVARIANT", "BUILDPLATFORM", "BUILDOS", "BUILDARCH",
        "BUILDVARIANT", "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "FTP_PROXY", "ftp_proxy",
        "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "SOURCE_DATE_EPOCH",
    ]

    /// True for an `ARG` line that only declares automatic arguments: it stays in the
    /// template's body as written.
    ///
    /// - Parameter instruction: An `ARG` instruction.
    public static func declaresOnlyAutomaticArguments(_ instruction: Instruction) -> Bool {
        instruction.knownKeyword == .arg && !instruction.arguments.isEmpty
            && instruction.arguments.allSatisfy { automaticArguments.contains($0) }
    }
}

/// The metadata comments at the top of a template.
struct TemplateMetadata {
    var summary = ""
    var requires: [String] = []
    var requiresLine = 0
    var documentation: [String: String] = [:]
    var documentationLines: [(String, Int)] = []
    var aptArchives: [(String, Int)] = []

    static func isParameterName<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    mutating func read(_ comment: String, line: Int) {
        if let value = Self.value(of: "summary:", in: comment) {
            summary = value
        } else if let value = Self.value(of: "requires:", in: comment) {
            requires += value.split(separator: ",").map { $0.trimmingHTTPWhitespace() }.filter {
                !$0.isEmpty
            }
            requiresLine = line
        } else if let value = Self.value(of: "apt-archive:", in: comment) {
            aptArchives.append((value, line))
        } else if let value = Self.value(of: "param ", in: comment), let colon = value.firstIndex(of: ":") {
            let name = String(value[..<colon]).trimmingHTTPWhitespace()
            documentation[name] = String(value[value.index(after: colon)...]).trimmingHTTPWhitespace()
            documentationLines.append((name, line))
        }
    }

    private static func value(of key: String, in comment: String) -> String? {
        guard comment.hasPrefix(key) else { return nil }
        return String(comment.dropFirst(key.count)).trimmingHTTPWhitespace()
    }
}
