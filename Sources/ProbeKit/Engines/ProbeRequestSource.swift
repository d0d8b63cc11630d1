/// Where a run's calls come from, in report order: a list known before the run starts, or one
/// that grows while it runs (`probe --targets -` reading a pipe as its lines arrive).
public protocol ProbeRequestSource: Sendable {
    /// The request of the call at `index`, waiting until that call is known.
    ///
    /// - Parameters:
    ///   - index: 0-based, in report order.
    ///   - cancellation: the run's switch: a source that waits for input stops waiting when it
    ///     turns on, and from then on knows no further call.
    /// - Returns: the request, or the record to report in its place (a target that does not
    ///   parse); `nil` when there is no call at `index`: the source ended before it, or the run
    ///   was cancelled while the source waited for it.
    func request(at index: Int, cancellation: ProbeCancellation) -> Result<ProbeRequest, ProbeResultFailure>?

    /// How many calls are known now. It never shrinks, and once the run is cancelled or the
    /// source has ended it no longer grows: every index below it is then a call that was made
    /// or must be reported as not started.
    var count: Int { get }

    /// Whether calls may still become known while the run goes on (input not read to its end).
    var mayGrow: Bool { get }
}

/// The calls of a list known before the run.
struct ProbeRequestList: ProbeRequestSource {
    let requests: [ProbeRequest]

    func request(at index: Int, cancellation: ProbeCancellation) -> Result<ProbeRequest, ProbeResultFailure>? {
        index < requests.count ? .success(requests[index]) : nil
    }

    var count: Int { requests.count }

    var mayGrow: Bool { false }
}
