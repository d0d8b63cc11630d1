import DockerfileSyntax

/// What a rule is, without its check: the id, name, severity, summary and hint that `--help`,
/// SARIF's rule metadata and config checks read.
public struct LintRuleDescription: Sendable, Hashable {
    /// `"SB"` + three digits.
    public var id: String
    /// The kebab-case name.
    public var name: String
    /// The default severity.
    public var severity: LintSeverity
    /// What the rule looks for, in one sentence.
    public var summary: String
    /// How to fix a finding, in one sentence.
    public var hint: String

    /// SB034: lint could not read a file (missing, a directory, no permission). The command
    /// reports it in every format, so a machine reader never sees an empty list for a file
    /// that was not linted; exit status 74.
    public static let unreadableFile = LintRuleDescription(
        id: "SB034", name: "unreadable-file", severity: .error,
        summary: "A file to lint could not be read.",
        hint: "check the path and its permissions")

    /// SB035: a file is not UTF-8 text or BuildKit's parser rejects it; exit status 65.
    public static let unparsableFile = LintRuleDescription(
        id: "SB035", name: "unparsable-file", severity: .error,
        summary: "A file to lint is not UTF-8 text or is not a Dockerfile BuildKit's parser reads.",
        hint: "fix the text at the position given")

    /// A finding of this rule.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - location: Where; line 1, column 1 when the file could not be read at all.
    public func finding(_ message: String, at location: SourceLocation = SourceLocation(line: 1, column: 1)) -> LintFinding {
        LintFinding(ruleID: id, severity: severity, message: message, hint: hint, line: location.line, column: location.column)
    }
}

extension LintRule {
    /// The rule's description.
    public var ruleDescription: LintRuleDescription {
        LintRuleDescription(id: id, name: name, severity: severity, summary: summary, hint: hint)
    }
}
