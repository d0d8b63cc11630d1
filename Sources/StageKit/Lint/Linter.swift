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
        let ignored = Self.ignoredRules(in: tree)
        var findings: [LintFinding] = []
        for rule in rules {
            for finding in rule.check(document) {
                let instruction = ignored.last { $0.lines.contains(finding.line) }
                if instruction?.ruleIDs.contains(finding.ruleID) == true { continue }
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

    /// The rules each instruction's pragmas switch off, with the lines the instruction spans.
    private static func ignoredRules(in tree: DockerfileSyntaxTree) -> [(lines: ClosedRange<Int>, ruleIDs: Set<String>)] {
        var result: [(lines: ClosedRange<Int>, ruleIDs: Set<String>)] = []
        for (index, element) in tree.elements.enumerated() {
            guard case .instruction(let instruction) = element.kind else { continue }
            var ids: Set<String> = []
            var previous = index - 1
            while previous >= 0, let comment = tree.elements[previous].commentText {
                ids.formUnion(LintPragma.ignoredRuleIDs(in: comment))
                previous -= 1
            }
            if !ids.isEmpty {
                result.append((instruction.startLine...max(instruction.startLine, instruction.endLine), ids))
            }
        }
        return result
    }
}
