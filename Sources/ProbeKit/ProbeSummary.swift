/// How many calls of a run ended each way: the report's last line, `N succeeded, N failed,
/// N cancelled`.
public struct ProbeSummary: Sendable, Equatable, CustomStringConvertible {
    /// Calls that succeeded.
    public var succeeded: Int
    /// Calls that failed.
    public var failed: Int
    /// Calls cancelled in flight or before they started.
    public var cancelled: Int

    /// Counts the outcomes of `results`.
    ///
    /// - Parameter results: a run's results.
    public init(_ results: [ProbeResult]) {
        succeeded = results.filter { $0.outcome == .succeeded }.count
        failed = results.filter { $0.outcome.failureReason != nil }.count
        cancelled = results.count - succeeded - failed
    }

    /// All calls.
    public var total: Int { succeeded + failed + cancelled }

    /// Whether every call succeeded (and there was at least one).
    public var allSucceeded: Bool { total > 0 && succeeded == total }

    /// `"2 succeeded, 1 failed, 0 cancelled"`.
    public var description: String { "\(succeeded) succeeded, \(failed) failed, \(cancelled) cancelled" }
}
