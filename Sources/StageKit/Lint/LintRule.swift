import DockerfileSyntax

/// One lint rule: an id, a severity, what it looks for, how to fix it, examples that fire and
/// do not fire it, and the check itself (hadolint's `Rule/DLnnnn.hs`, SwiftLint's rules with
/// their triggering and non-triggering examples).
///
/// Rules read a `DockerfileDocument` and never print; the `Linter` runs them, applies the ignore
/// pragmas and sorts the findings.
public protocol LintRule: Sendable {
    /// `"SB"` + three digits, e.g. `SB001`; never reused for another rule.
    var id: String { get }
    /// A short kebab-case name, e.g. `image-without-digest`.
    var name: String { get }
    /// The severity of every finding of the rule.
    var severity: LintSeverity { get }
    /// What the rule looks for, in one sentence.
    var summary: String { get }
    /// How to fix a finding, in one sentence.
    var hint: String { get }
    /// Dockerfile snippets that must fire the rule; one shared test runs them all.
    var triggeringExamples: [String] { get }
    /// Dockerfile snippets that must not fire the rule.
    var nonTriggeringExamples: [String] { get }

    /// The config the examples are checked with; the defaults unless the rule reads the config.
    var exampleConfiguration: LintConfiguration { get }

    /// The rule as a project's config asks for it (a rule that reads no config returns itself).
    ///
    /// - Parameter configuration: The config in force for the file.
    func configured(by configuration: LintConfiguration) -> any LintRule

    /// Checks a document.
    ///
    /// - Parameter document: The parsed file.
    /// - Returns: The findings, in any order; pragmas are applied by the `Linter`.
    func check(_ document: DockerfileDocument) -> [LintFinding]
}

extension LintRule {
    /// The defaults: most rules read no config.
    public var exampleConfiguration: LintConfiguration { LintConfiguration() }

    /// The rule itself: most rules read no config.
    public func configured(by configuration: LintConfiguration) -> any LintRule { self }

    /// A finding of this rule with its severity and hint.
    ///
    /// - Parameters:
    ///   - message: What is wrong at this place.
    ///   - location: Where.
    /// - Returns: The finding.
    public func finding(_ message: String, at location: SourceLocation) -> LintFinding {
        LintFinding(
            ruleID: id, severity: severity, message: message, hint: hint, line: location.line, column: location.column)
    }
}
