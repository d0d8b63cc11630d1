import DockerfileSyntax
import Foundation

/// One stage template: a Dockerfile fragment in a catalog, e.g. `Stages/node-runtime.Dockerfile`.
///
/// Its metadata lives in the leading comment block so that the file stays a valid Dockerfile:
/// `# summary: …`, `# requires: a, b` and one `# param NAME: …` per parameter. Its parameters
/// are its `ARG` lines. A *base* template starts with `FROM`; a *layer* template has no `FROM`.
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
        // A last instruction left open by a line continuation ends only at the end of the file;
        // pasted into a composed file it would swallow the instruction after it.
        if let element = tree.elements.last(where: { if case .instruction = $0.kind { true } else { false } }),
            case .instruction(let last) = element.kind, last.heredocs.isEmpty,
            LineContinuation.isOpen(element.text, escape: tree.directives.escapeCharacter.scalar)
        {
            throw CompositionError(
                "the last instruction ends with a line continuation, so in a composed file it would swallow the "
                    + "instruction after it; remove the escape character at the end of its last line",
                file: displayPath, at: SourceLocation(line: last.startLine, column: 1))
        }
        let fromInstructions = instructions.filter { $0.kind == "FROM" }
        kind = fromInstructions.isEmpty ? .layer : .base
        if let from = fromInstructions.first {
            guard instructions.first?.kind == "FROM" else {
                throw CompositionError(
                    "a base template must start with FROM; its parameters (ARG) go after the FROM line",
                    file: displayPath, at: SourceLocation(line: instructions[0].startLine, column: 1))
            }
            if fromInstructions.count > 1 {
                throw CompositionError(
                    "a stage template holds one build stage; this is a second FROM",
                    file: displayPath, at: SourceLocation(line: fromInstructions[1].startLine, column: 1))
            }
            if from.arguments.count != 1 || from.arguments[0].contains("$") {
                throw CompositionError(
                    "a base template's FROM names one image without AS and without parameters, e.g. FROM debian:bookworm-slim",
                    file: displayPath, at: SourceLocation(line: from.startLine, column: 1))
            }
        }
        var parameters: [TemplateParameter] = []
        for instruction in instructions {
            if instruction.kind == "USE"
                || instruction.kind == "FROM" && instruction.arguments.first?.lowercased().hasPrefix("stage:") == true
            {
                throw CompositionError(
                    "a stage template cannot use other templates with \(instruction.keyword); name them in '# requires:'",
                    file: displayPath, at: SourceLocation(line: instruction.startLine, column: 1))
            }
        }
        for instruction in instructions where instruction.kind == "ARG" && !Self.declaresOnlyAutomaticArguments(instruction) {
            for word in instruction.arguments {
                let name = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let defaultWord = word.contains("=") ? String(word.drop(while: { $0 != "=" }).dropFirst()) : nil
                guard !Self.automaticArguments.contains(String(name)) else {
                    throw CompositionError(
                        "\(name) is set by BuildKit itself; declare it on an ARG line of its own so it stays a build argument",
                        file: displayPath, at: SourceLocation(line: instruction.startLine, column: 1))
                }
                guard TemplateMetadata.isParameterName(name) else {
                    throw CompositionError(
                        "parameter name '\(name)' must be letters, digits and _ and not start with a digit",
                        file: displayPath, at: SourceLocation(line: instruction.startLine, column: 1))
                }
                if parameters.contains(where: { $0.name == name }) {
                    throw CompositionError(
                        "parameter \(name) is declared twice", file: displayPath,
                        at: SourceLocation(line: instruction.startLine, column: 1))
                }
                parameters.append(
                    TemplateParameter(
                        name: String(name), defaultWord: defaultWord,
                        documentation: metadata.documentation[String(name)] ?? "", line: instruction.startLine))
            }
        }
        for (documented, line) in metadata.documentationLines where !parameters.contains(where: { $0.name == documented }) {
            throw CompositionError(
                "'# param \(documented)' documents a parameter the template does not declare with ARG",
                file: displayPath, at: SourceLocation(line: line, column: 1))
        }
        self.parameters = parameters
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
        instruction.kind == "ARG" && !instruction.arguments.isEmpty
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
            requires += value.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }.filter {
                !$0.isEmpty
            }
            requiresLine = line
        } else if let value = Self.value(of: "param ", in: comment), let colon = value.firstIndex(of: ":") {
            let name = String(value[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            documentation[name] = String(value[value.index(after: colon)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: " \t"))
            documentationLines.append((name, line))
        }
    }

    private static func value(of key: String, in comment: String) -> String? {
        guard comment.hasPrefix(key) else { return nil }
        return String(comment.dropFirst(key.count)).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    }
}
