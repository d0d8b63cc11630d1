import DockerfileSyntax

/// Runs lint rules over a Dockerfile, stage template or Stagefile: every rule's findings,
/// minus those an ignore pragma switches off, sorted by position.
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
    ]

    /// The rules this linter runs.
    public var rules: [any LintRule]
    /// The lowest severity that makes a run fail.
    public var failureThreshold: LintFailureThreshold

    /// Creates a linter.
    ///
    /// - Parameters:
    ///   - rules: The rules to run; all of them by default.
    ///   - failureThreshold: The lowest severity that fails; `warning` by default, as in hadolint.
    public init(rules: [any LintRule] = Linter.allRules, failureThreshold: LintFailureThreshold = .warning) {
        self.rules = rules
        self.failureThreshold = failureThreshold
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
        let document = LintDocument(tree)
        let ignored = Self.ignoredRules(in: document)
        var findings: [LintFinding] = []
        for rule in rules {
            for finding in rule.check(document) where !ignored.switchesOff(finding) {
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

    /// The rules each instruction's pragmas switch off, by the lines the instruction spans.
    private struct IgnoredRules {
        /// Per instruction with pragmas, in file order: its lines and the ids switched off.
        var spans: [(lines: ClosedRange<Int>, ruleIDs: Set<String>)] = []

        /// Whether a pragma switches a finding off: it names the finding's rule and sits above
        /// the instruction whose lines hold the finding. Found by binary search, as the
        /// instructions do not overlap and come in line order.
        func switchesOff(_ finding: LintFinding) -> Bool {
            var low = 0
            var high = spans.count
            while low < high {
                let middle = (low + high) / 2
                if spans[middle].lines.lowerBound <= finding.line { low = middle + 1 } else { high = middle }
            }
            guard low > 0, spans[low - 1].lines.contains(finding.line) else { return false }
            return spans[low - 1].ruleIDs.contains(finding.ruleID)
        }
    }

    private static func ignoredRules(in document: LintDocument) -> IgnoredRules {
        var ignored = IgnoredRules()
        for comment in document.pragmas {
            guard let lines = comment.instructionLines, !comment.pragma.ruleIDs.isEmpty else { continue }
            if let last = ignored.spans.last, last.lines == lines {
                ignored.spans[ignored.spans.count - 1].ruleIDs.formUnion(comment.pragma.ruleIDs)
            } else {
                ignored.spans.append((lines, Set(comment.pragma.ruleIDs)))
            }
        }
        return ignored
    }
}
