import Serialization
import YAML

/// What a project's `.stagebuild.yaml` (or `lint --config FILE`) asks of lint, in hadolint's
/// config format where hadolint has the key (hadolint's README, "Configure"):
///
/// ```yaml
/// failure-threshold: warning      # error, warning, info, style or none
/// ignored: [SB013]                # rules not run
/// override:                       # severities changed per rule
///   error: [SB003]
///   info: [SB005]
/// trustedRegistries:              # SB033: images only from these registries
///   - docker.io
///   - "*.corp.example"
/// enforced: [SB001]               # rules an ignore pragma cannot switch off
/// ```
///
/// `enforced` is stagebuild's own: a company's policy travels with its catalog, and a pragma
/// that tries to silence such a rule is reported (SB016) while the finding stays.
public struct LintConfiguration: Sendable, Equatable {
    /// The rules not run.
    public var ignored: Set<String>
    /// A severity per rule id, replacing the rule's own.
    public var severityOverrides: [String: LintSeverity]
    /// The failure threshold the file sets; the command line's `--failure-threshold` wins.
    public var failureThreshold: LintFailureThreshold?
    /// The registries images may come from (`host`, `host:port` or `*.domain`); `nil` leaves
    /// SB033 off.
    public var trustedRegistries: [String]?
    /// The rules no ignore pragma switches off.
    public var enforced: Set<String>
    /// The file the configuration was read from, as given; `nil` for the defaults.
    public var file: String?

    /// Creates a configuration; with no arguments, the defaults (every rule, own severities).
    public init(
        ignored: Set<String> = [], severityOverrides: [String: LintSeverity] = [:],
        failureThreshold: LintFailureThreshold? = nil, trustedRegistries: [String]? = nil,
        enforced: Set<String> = [], file: String? = nil
    ) {
        self.ignored = ignored
        self.severityOverrides = severityOverrides
        self.failureThreshold = failureThreshold
        self.trustedRegistries = trustedRegistries
        self.enforced = enforced
        self.file = file
    }

    /// The keys of the format.
    static let keys: Set<String> = ["failure-threshold", "ignored", "override", "trustedRegistries", "enforced"]

    /// hadolint keys this format leaves out, with what to use instead.
    static let hadolintOnlyKeys = [
        "no-fail": "use failure-threshold: none",
        "no-color": "colour is used only on a terminal, and never with NO_COLOR set",
        "format": "use lint --format",
        "label-schema": "stagebuild has no label rules",
        "strict-labels": "stagebuild has no label rules",
        "disable-ignore-pragma": "list the rules under enforced",
    ]

    /// Reads a config file's text.
    ///
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The file's name as given, for errors and for SB016's messages.
    /// - Throws: ``YAMLConfigError`` at `file:line:column` for YAML that does not parse, an
    ///   unknown key, an id that names no stagebuild rule, an unknown severity or threshold, a
    ///   rule both ignored and enforced or overridden twice, or a registry that is not
    ///   `host[:port]` or `*.domain`.
    public init(parsing text: String, file: String) throws(YAMLConfigError) {
        self.init(file: file)
        let reader = YAMLConfigReader(file: file)
        guard let root = try reader.document(text) else { return }
        let fields = try reader.mapping(
            root, allowed: Self.keys, in: "the top level of a lint config", unsupported: Self.hadolintOnlyKeys)
        if let node = fields["failure-threshold"] {
            let text = try reader.string(node)
            guard let threshold = LintFailureThreshold(rawValue: text) else {
                let names = LintFailureThreshold.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.error(node, "failure-threshold must be one of \(names), not '\(text)'")
            }
            failureThreshold = threshold
        }
        if let node = fields["ignored"] {
            ignored = Set(try Self.ruleIDs(node, reader: reader, in: "ignored"))
        }
        if let node = fields["enforced"] {
            for (id, item) in try Self.ruleIDNodes(node, reader: reader, in: "enforced") {
                if ignored.contains(id) {
                    throw reader.error(item, "\(id) is both ignored and enforced; keep it in one list")
                }
                enforced.insert(id)
            }
        }
        if let node = fields["override"] {
            let allowed = Set(LintSeverity.allCases.map(\.rawValue))
            for (key, value) in try reader.pairs(node, in: "override") {
                guard let severity = LintSeverity(rawValue: key.scalar ?? "") else {
                    throw reader.error(
                        key,
                        "unknown severity '\(key.scalar ?? "")' in override (known: \(allowed.sorted().joined(separator: ", ")))")
                }
                for (id, item) in try Self.ruleIDNodes(value, reader: reader, in: "override \(severity.rawValue)") {
                    if let earlier = severityOverrides[id], earlier != severity {
                        throw reader.error(item, "\(id) is overridden both as \(earlier.rawValue) and as \(severity.rawValue)")
                    }
                    severityOverrides[id] = severity
                }
            }
        }
        if let node = fields["trustedRegistries"] {
            guard let items = node.sequence else { throw reader.error(node, "trustedRegistries must be a list") }
            var registries: [String] = []
            for item in items {
                let registry = try reader.string(item)
                guard TrustedRegistry.isValidPattern(registry) else {
                    throw reader.error(
                        item,
                        "'\(registry)' is not a registry: write host, host:port or *.domain, e.g. docker.io or *.corp.example")
                }
                registries.append(registry)
            }
            trustedRegistries = registries
        }
    }

    /// The rule ids of a list, each a known rule.
    private static func ruleIDs(_ node: YAMLNode, reader: YAMLConfigReader, in place: String) throws(YAMLConfigError) -> [String]
    {
        try ruleIDNodes(node, reader: reader, in: place).map(\.id)
    }

    /// The rule ids of a list with their nodes, upper-cased, each a rule stagebuild ships.
    private static func ruleIDNodes(
        _ node: YAMLNode, reader: YAMLConfigReader, in place: String
    ) throws(YAMLConfigError) -> [(id: String, node: YAMLNode)] {
        if node.isNull { return [] }
        guard let items = node.sequence else { throw reader.error(node, "\(place) must be a list of rule ids") }
        let known = Set(Linter.ruleDescriptions.map(\.id))
        var ids: [(String, YAMLNode)] = []
        for item in items {
            let text = try reader.string(item)
            let id = text.uppercased()
            guard LintPragma.isRuleID(id) else {
                throw reader.error(item, "'\(text)' in \(place) is not a rule id (SB and three digits)")
            }
            guard known.contains(id) else { throw reader.error(item, "\(id) in \(place) is not a stagebuild rule") }
            ids.append((id, item))
        }
        return ids
    }
}

/// A `trustedRegistries` entry matched against an image's registry domain.
enum TrustedRegistry {
    /// Whether an entry is `host`, `host:port` or `*.domain` (letters, digits, `-` and `.`;
    /// a bracketed IPv6 address for `host`).
    static func isValidPattern(_ pattern: String) -> Bool {
        let name = pattern.hasPrefix("*.") ? pattern.dropFirst(2) : pattern[...]
        guard let (host, port) = HostPort.split(name), port.map(isPort) ?? true else { return false }
        if name.hasPrefix("[") { return true }
        return !host.isEmpty
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                !label.isEmpty && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether an image's registry domain is trusted: equal to an entry (without regard to ASCII
    /// case), or under a `*.domain` entry. `docker.io` also stands for its other names,
    /// `index.docker.io` and `registry-1.docker.io`.
    ///
    /// - Parameters:
    ///   - domain: The image's domain with its port, e.g. `docker.io`, `localhost:5000`.
    ///   - patterns: The entries.
    static func trusts(_ domain: String, patterns: [String]) -> Bool {
        let dockerHubNames: Set<String> = ["docker.io", "index.docker.io", "registry-1.docker.io"]
        let name = dockerHubNames.contains(domain.lowercased()) ? "docker.io" : domain.lowercased()
        return patterns.contains { pattern in
            let entry = pattern.lowercased()
            if entry.hasPrefix("*.") { return name.hasSuffix(entry.dropFirst()) }
            return (dockerHubNames.contains(entry) ? "docker.io" : entry) == name
        }
    }
}
