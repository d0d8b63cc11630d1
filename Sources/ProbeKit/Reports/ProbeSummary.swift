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
        succeeded = 0
        failed = 0
        cancelled = 0
        for result in results { count(result) }
    }

    /// Counts one more result.
    ///
    /// - Parameter result: a call's result.
    public mutating func count(_ result: ProbeResult) {
        if result.outcome == .succeeded {
            succeeded += 1
        } else if result.outcome.failureReason != nil {
            failed += 1
        } else {
            cancelled += 1
        }
    }

    /// Adds the counts of another part of the run.
    ///
    /// - Parameter other: Counts of other calls.
    public mutating func add(_ other: ProbeSummary) {
        succeeded += other.succeeded
        failed += other.failed
        cancelled += other.cancelled
    }

    /// All calls.
    public var total: Int { succeeded + failed + cancelled }

    /// Whether every call succeeded (and there was at least one).
    public var allSucceeded: Bool { total > 0 && succeeded == total }

    /// `"2 succeeded, 1 failed, 0 cancelled"`.
    public var description: String { "\(succeeded) succeeded, \(failed) failed, \(cancelled) cancelled" }
}
