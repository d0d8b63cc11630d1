import DockerfileSyntax

/// One thing a lint rule found: which rule, how much it matters, what is wrong, how to fix
/// it, and where.
public struct LintFinding: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The rule's id, `"SB"` + three digits, e.g. `SB001`.
    public var ruleID: String
    /// How much the finding matters.
    public var severity: LintSeverity
    /// What is wrong, in one sentence without a trailing period. Never holds a value that
    /// looks like a secret.
    public var message: String
    /// How to fix it, in one sentence without a trailing period.
    public var hint: String
    /// The 1-based line of the offending word.
    public var line: Int
    /// The 1-based column of the offending word in Unicode scalars; 1 when the rule cannot
    /// point at one word.
    public var column: Int

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - ruleID: The rule's id, e.g. `SB001`.
    ///   - severity: How much it matters.
    ///   - message: What is wrong.
    ///   - hint: How to fix it.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    public init(ruleID: String, severity: LintSeverity, message: String, hint: String, line: Int, column: Int) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.hint = hint
        self.line = line
        self.column = column
    }

    /// The line and column as one value.
    public var location: SourceLocation { SourceLocation(line: line, column: column) }

    /// `line:column: severity: SBnnn message`, the form `stagebuild lint` prints after the file name.
    public var description: String { "\(line):\(column): \(severity.rawValue): \(ruleID) \(message)" }

    /// Orders findings by line, then column, then rule id, then message.
    public static func < (lhs: LintFinding, rhs: LintFinding) -> Bool {
        (lhs.line, lhs.column, lhs.ruleID, lhs.message) < (rhs.line, rhs.column, rhs.ruleID, rhs.message)
    }
}
