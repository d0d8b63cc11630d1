import DockerfileSyntax

/// A template's word that it adds an apt archive to its build stage, so that `stagebuild lock`
/// resolves the stage's package pins where apt will look for them: a metadata comment
///
/// ```text
/// # apt-archive: debian release=${DEBIAN_RELEASE} snapshot=${DEBIAN_SNAPSHOT} snapshot-url=${DEBIAN_SNAPSHOT_URL}
/// # apt-archive: ubuntu release=${UBUNTU_RELEASE} snapshot=${UBUNTU_SNAPSHOT} keyring=${UBUNTU_KEYRING}
/// # apt-archive: repository url=${APT_REPOSITORY_URL} suites=${APT_REPOSITORY_SUITE} components=${APT_REPOSITORY_COMPONENTS} key=${APT_REPOSITORY_KEY}
/// ```
///
/// Each field is `NAME=VALUE`; a value reads the template's parameters as `${NAME}` or `$NAME`
/// and takes the value each placement gives them. Lists (`suites`, `components`) are separated
/// by commas or, once expanded, spaces. Fields:
/// - `debian`, `ubuntu`: `release` (required), `snapshot` (a time, or empty for the live
///   archive; the parameter it reads is the one `lock --snapshot` records), `snapshot-url`,
///   `components` (Debian: `main`; Ubuntu: `main,restricted,universe,multiverse`), `keyring` (a
///   keyring file; Debian's or Ubuntu's archive keyring by default).
/// - `repository`: `url` and `suites` (required), `components` (default `main`), and `key` (a key
///   file in the build context) or `keyring` (a keyring file on the machine).
public struct AptArchiveDeclaration: Sendable, Hashable {
    /// Whose archive it declares.
    public var kind: AptArchive.Kind
    /// The fields as written, values with their parameter references.
    public var fields: [String: String]
    /// The comment's line in the template.
    public var line: Int

    /// The fields each kind takes.
    static let fieldNames: [AptArchive.Kind: Set<String>] = [
        .debian: ["release", "snapshot", "snapshot-url", "components", "keyring"],
        .ubuntu: ["release", "snapshot", "snapshot-url", "components", "keyring"],
        .repository: ["url", "suites", "components", "key", "keyring"],
    ]

    /// Reads the text after `apt-archive:`.
    ///
    /// - Parameters:
    ///   - text: e.g. `debian release=${DEBIAN_RELEASE}`.
    ///   - line: The comment's line.
    ///   - parameters: The template's parameter names, which values may read.
    ///   - file: The template as messages show it.
    /// - Throws: `CompositionError` for an unknown kind or field, a field given twice, a missing
    ///   required field, or a value that reads something other than a parameter.
    init(parsing text: String, line: Int, parameters: Set<String>, file: String) throws(CompositionError) {
        let at = SourceLocation(line: line, column: 1)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first, let kind = AptArchive.Kind(rawValue: first) else {
            let kinds = AptArchive.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw CompositionError("apt-archive: the first word names the archive's kind: \(kinds)", file: file, at: at)
        }
        let allowed = Self.fieldNames[kind] ?? []
        var fields: [String: String] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else {
                throw CompositionError("apt-archive: '\(word)' is no NAME=VALUE field", file: file, at: at)
            }
            let name = String(word[..<equals])
            guard allowed.contains(name) else {
                throw CompositionError(
                    "apt-archive: a \(kind.rawValue) archive has no field '\(name)' (its fields: "
                        + allowed.sorted().joined(separator: ", ") + ")", file: file, at: at)
            }
            guard fields[name] == nil else {
                throw CompositionError("apt-archive: field '\(name)' is given twice", file: file, at: at)
            }
            fields[name] = String(word[word.index(after: equals)...])
        }
        let required: [String] = kind == .repository ? ["url", "suites"] : ["release"]
        for name in required where fields[name] == nil {
            throw CompositionError("apt-archive: a \(kind.rawValue) archive needs the field \(name)=…", file: file, at: at)
        }
        if kind == .repository && fields["key"] == nil && fields["keyring"] == nil {
            throw CompositionError(
                "apt-archive: a repository names the key it is signed with: key=FILE (in the build context) or keyring=PATH",
                file: file, at: at)
        }
        let placeholders = Dictionary(uniqueKeysWithValues: parameters.map { ($0, "x") })
        for (name, value) in fields where (try? Self.expand(value, values: placeholders))?.contains("$") != false {
            throw CompositionError(
                "apt-archive: field \(name) reads something other than the template's parameters (${NAME} or $NAME)",
                file: file, at: at)
        }
        self.kind = kind
        self.fields = fields
        self.line = line
    }

    /// The parameter a field reads alone (`${NAME}` or `$NAME`), e.g. the snapshot's.
    public func parameter(of field: String) -> String? {
        guard var value = fields[field], value.hasPrefix("$") else { return nil }
        value.removeFirst()
        if value.hasPrefix("{") && value.hasSuffix("}") { value = String(value.dropFirst().dropLast()) }
        return TemplateMetadata.isParameterName(value) ? value : nil
    }

    /// The archive one placement of the template declares.
    ///
    /// - Parameter values: Each parameter's value at this placement (bound or default, unquoted).
    /// - Returns: The archive.
    /// - Throws: `AptArchiveError` for an empty required field or a snapshot that is no time.
    public func archive(values: [String: String]) throws(AptArchiveError) -> AptArchive {
        func field(_ name: String) -> String? {
            fields[name].map { (try? Self.expand($0, values: values)) ?? $0 }
        }
        func list(_ name: String) -> [String]? {
            field(name).map { $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
        }
        let snapshot = field("snapshot").flatMap { $0.isEmpty ? nil : $0 }
        if let snapshot, !AptArchive.isSnapshotTime(snapshot) {
            throw AptArchiveError(
                "\(parameter(of: "snapshot") ?? "snapshot")=\(snapshot) is no snapshot time YYYYMMDDTHHMMSSZ (UTC)")
        }
        switch kind {
        case .debian, .ubuntu:
            guard let release = field("release"), !release.isEmpty else {
                throw AptArchiveError("the \(kind.rawValue) archive's release is empty")
            }
            let isDebian = kind == .debian
            return AptArchive(
                kind: kind, release: release, snapshot: snapshot, snapshotParameter: parameter(of: "snapshot"),
                snapshotURL: field("snapshot-url").flatMap { $0.isEmpty ? nil : $0 }
                    ?? (isDebian ? "http://snapshot.debian.org" : "https://snapshot.ubuntu.com"),
                components: list("components") ?? (isDebian ? ["main"] : ["main", "restricted", "universe", "multiverse"]),
                keyring: .file(
                    field("keyring").flatMap { $0.isEmpty ? nil : $0 }
                        ?? "/usr/share/keyrings/\(isDebian ? "debian" : "ubuntu")-archive-keyring.gpg"))
        case .repository:
            guard let url = field("url"), !url.isEmpty, let suites = list("suites"), !suites.isEmpty else {
                throw AptArchiveError("the repository's url or suites are empty")
            }
            let keyring: AptKeyring
            if let key = field("key"), !key.isEmpty {
                keyring = .buildContext(key)
            } else if let path = field("keyring"), !path.isEmpty {
                keyring = .file(path)
            } else {
                throw AptArchiveError("the repository's key is empty")
            }
            return AptArchive(
                kind: .repository, url: url, suites: suites, components: list("components") ?? ["main"], keyring: keyring)
        }
    }

    /// A value with each parameter reference replaced (BuildKit's lexer without quotes).
    static func expand(_ value: String, values: [String: String]) throws(ShellWordLexer.Fault) -> String {
        var lexer = ShellWordLexer()
        lexer.values = values
        return try lexer.word(value)
    }
}

/// An archive declaration whose values do not make an archive.
public struct AptArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameter reason: What is wrong.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
