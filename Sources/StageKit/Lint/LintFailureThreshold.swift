/// The lowest severity that makes `stagebuild lint` fail, as hadolint's `--failure-threshold`:
/// with `warning`, warnings and errors fail and info and style findings are only reported.
public enum LintFailureThreshold: String, Sendable, Hashable, CaseIterable {
    /// Only errors fail.
    case error
    /// Warnings and errors fail (the default).
    case warning
    /// Everything but style findings fails.
    case info
    /// Every finding fails.
    case style
    /// Nothing fails; findings are only reported.
    case none

    /// Whether a finding of a severity reaches the threshold.
    ///
    /// - Parameter severity: The finding's severity.
    /// - Returns: True when the finding makes the run fail.
    public func isReached(by severity: LintSeverity) -> Bool {
        switch self {
        case .error: severity >= .error
        case .warning: severity >= .warning
        case .info: severity >= .info
        case .style: true
        case .none: false
        }
    }
}
