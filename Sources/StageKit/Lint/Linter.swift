import DockerfileSyntax
import Serialization

/// Runs lint rules over a Dockerfile, stage template or Stagefile as a project's lint config
/// asks: every rule's findings, minus those an ignore pragma switches off (never an enforced
/// rule's), with the config's severities, sorted by position.
public struct Linter: Sendable {
    /// Every rule stagebuild ships, in id order.
    public static let allRules: [any LintRule] = [
        SB001ImageWithoutDigest(),
        SB002ImageWithoutTag(),
        SB003AptGetInstallWithoutPins(),
        SB004AptListsNotRemoved(),
        SB005AptGetWithoutNoInstallRecommends(),
        SB006AptGetUpgrade(),
        SB007PipInstallWithoutPins(),
        SB008NpmInstallInsteadOfCi(),
        SB009DownloadPipedToShell(),
        SB010AddURLWithoutChecksum(),
        SB011GitCloneWithoutCommit(),
        SB012RootUser(),
        SB013ShellFormCommand(),
        SB014SecretInArgOrEnv(),
        SB015DuplicateStageName(),
        SB016InvalidPragma(),
        SB017UnknownInstruction(),
        SB018ApkAddWithoutPins(),
        SB019ApkAddWithoutNoCache(),
        SB020DnfInstallWithoutPins(),
        SB021DnfCacheNotCleaned(),
        SB022ZypperInstallWithoutPins(),
        SB023GoInstallWithoutVersion(),
        SB024NpmInstallWithoutVersion(),
        SB025GemInstallWithoutVersion(),
        SB026CargoInstallWithoutVersionOrLocked(),
        SB027PipeWithoutPipefail(),
        SB028DownloadWithoutChecksum(),
        SB029ArgWithoutDefaultInFrom(),
        SB030InvalidOnbuildTrigger(),
        SB031MisplacedParserDirective(),
        SB032MaintainerDeprecated(),
        SB033UntrustedRegistry(),
        SB036VariableInExecForm(),
        SB037BuildArgumentReadAtRunTime(),
        SB038PipefailUnderDash(),
        SB039InsecureRunOption(),
        SB040ToolInstallWithoutVersion(),
        SB041UnreadableFromWord(),
        SB042FlagWithoutValue(),
    ]

    /// Every rule a finding can name, in id order: the rules that check a document, then the
    /// two the command reports for files it could not lint (SB034, SB035).
    public static let ruleDescriptions: [LintRuleDescription] =
        allRules.map(\.ruleDescription) + [.unreadableFile, .unparsableFile]

    /// The rules this linter runs, configured: the config's `ignored` ones left out.
    public var rules: [any LintRule]
    /// The lowest severity that makes a run fail.
    public var failureThreshold: LintFailureThreshold
    /// The project's lint config.
    public var configuration: LintConfiguration

    /// Creates a linter.
    ///
    /// - Parameters:
    ///   - rules: The rules to run; all of them by default.
    ///   - failureThreshold: The lowest severity that fails; by default the config's, else
    ///     `warning`, as in hadolint.
    ///   - configuration: The project's lint config; the defaults when there is none.
    public init(
        rules: [any LintRule] = Linter.allRules, failureThreshold: LintFailureThreshold? = nil,
        configuration: LintConfiguration = LintConfiguration()
    ) {
        self.rules = rules.filter { !configuration.ignored.contains($0.id) }.map { $0.configured(by: configuration) }
        self.failureThreshold = failureThreshold ?? configuration.failureThreshold ?? .warning
        self.configuration = configuration
    }

    /// The rule with an id, if this linter runs it.
    ///
    /// - Parameter id: A rule id, e.g. `SB001`.
    public func rule(withID id: String) -> (any LintRule)? {
        rules.first { $0.id == id }
    }

    /// Lints a parsed file.
    ///
    /// - Parameter tree: The file's syntax tree.
    /// - Returns: The findings not switched off by a pragma, sorted by line, column and rule id.
    public func lint(_ tree: DockerfileSyntaxTree) -> [LintFinding] {
        let document = DockerfileDocument(tree)
        let ignored = Self.ignoredRules(in: document, enforced: configuration.enforced)
        var findings: [LintFinding] = []
        for rule in rules {
            for var finding in rule.check(document) where !ignored.switchesOff(finding) {
                finding.severity = configuration.severityOverrides[finding.ruleID] ?? finding.severity
                findings.append(finding)
            }
        }
        return Array(Set(findings)).sorted()
    }

    /// Parses and lints a file's text.
    ///
    /// - Parameter text: The file's text.
    /// - Returns: The findings, as `lint(_:)` returns them.
    /// - Throws: `DockerfileSyntaxError` with the line and column when BuildKit's parser
    ///   rejects the text.
    public func lint(text: String) throws(DockerfileSyntaxError) -> [LintFinding] {
        lint(try DockerfileParser.parse(text))
    }

    /// Whether findings make a run fail: one of them reaches the failure threshold.
    ///
    /// - Parameter findings: The findings of a run.
    /// - Returns: True when the run fails.
    public func fails(_ findings: [LintFinding]) -> Bool {
        findings.contains { failureThreshold.isReached(by: $0.severity) }
    }

    /// The rules each instruction's pragmas switch off, by the lines the instruction spans,
    /// and those the file's global pragmas switch off everywhere.
    private struct IgnoredRules {
        /// Per instruction with pragmas, in file order: its lines and the ids switched off.
        var spans: [(lines: ClosedRange<Int>, ruleIDs: Set<String>)] = []
        /// The ids switched off in the whole file.
        var global: Set<String> = []

        /// Whether a pragma switches a finding off: it names the finding's rule and sits above
        /// the instruction whose lines hold the finding. Found by binary search, as the
        /// instructions do not overlap and come in line order.
        func switchesOff(_ finding: LintFinding) -> Bool {
            if global.contains(finding.ruleID) { return true }
            let low = spans.partitioningIndex { $0.lines.lowerBound > finding.line }
            guard low > 0, spans[low - 1].lines.contains(finding.line) else { return false }
            return spans[low - 1].ruleIDs.contains(finding.ruleID)
        }
    }

    /// What the pragmas switch off. Enforced rules stay on, and so does SB016, which reports
    /// the pragmas themselves.
    private static func ignoredRules(in document: DockerfileDocument, enforced: Set<String>) -> IgnoredRules {
        var ignored = IgnoredRules()
        for comment in document.pragmas {
            let ids = Set(comment.pragma.ruleIDs).subtracting(enforced).subtracting(["SB016"])
            if comment.pragma.isGlobal {
                if comment.isAboveFirstInstruction { ignored.global.formUnion(ids) }
                continue
            }
            guard let lines = comment.instructionLines, !ids.isEmpty else { continue }
            if let last = ignored.spans.last, last.lines == lines {
                ignored.spans[ignored.spans.count - 1].ruleIDs.formUnion(ids)
            } else {
                ignored.spans.append((lines, ids))
            }
        }
        return ignored
    }
}
