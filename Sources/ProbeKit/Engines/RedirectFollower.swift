import Curl

/// Follows a call's redirects hop by hop, as `-L` and the exporter's modules ask: every hop is a
/// request of its own, so each gets the route curl would choose for its URL, the run's TLS
/// policy, its own certificate facts and Apple verdicts, and ``RedirectRules`` decide what the
/// next one sends. Every hop fits in the one `--max-time`, and the report's reason belongs to the
/// hop that failed.
struct RedirectFollower {
    /// The run's settings: `--max-time`, `--max-redirs`, the allowed targets.
    let settings: ProbeSettings

    /// Makes one hop's request alone within the seconds the call has left: its result, and the
    /// `Location` its answer points to when it is a redirect to follow (the answer is then not
    /// judged).
    typealias Hop = (_ request: ProbeRequest, _ remainingSeconds: Double) -> (result: ProbeResult, location: String?)

    /// Makes the call, following each redirect while the rules allow.
    ///
    /// - Parameters:
    ///   - request: the call's first request.
    ///   - hop: makes one hop's request.
    /// - Returns: the last hop's result, with ``ProbeResult/hops`` listing every hop when a
    ///   redirect was followed; the call's target and method stay the first request's, and
    ///   `timings.total` covers every hop.
    func follow(_ request: ProbeRequest, hop: Hop) -> ProbeResult {
        let clock = ContinuousClock()
        let start = clock.now
        var current = request
        var hops: [RedirectHop] = []
        var warnings: [String] = []
        // With -v, every hop's trace in order, as curl -v -L shows them.
        var trace: String?
        while true {
            let remaining = settings.effectiveMaxTime - (clock.now - start).inSeconds
            var (result, location) = hop(current, max(remaining, 0.001))
            for warning in result.warnings where !warnings.contains(warning) { warnings.append(warning) }
            if let hopTrace = result.trace {
                trace = trace.map { "\($0)\n\(hopTrace)" } ?? hopTrace
                result.trace = trace
            }
            if let location, result.outcome == .succeeded, let status = result.httpStatus {
                let shown = Redaction.url(location)
                guard hops.count < settings.maxRedirects else {
                    Self.fail(&result, .tooManyRedirects(limit: settings.maxRedirects, location: shown))
                    return Self.finished(result, request: current, first: request, hops: hops, warnings: warnings, since: start)
                }
                switch RedirectRules.next(
                    after: current, first: request, status: status, location: location, allowedTargets: settings.allowedTargets)
                {
                case .follow(let next):
                    hops.append(RedirectHop(result, request: current, location: shown))
                    current = next
                    continue
                case .refuse(let reason):
                    Self.fail(&result, reason)
                }
            }
            return Self.finished(result, request: current, first: request, hops: hops, warnings: warnings, since: start)
        }
    }

    private static func fail(_ result: inout ProbeResult, _ reason: FailureReason) {
        result.outcome = .failed(reason)
        result.message = reason.message
    }

    /// The call's result: the last hop's, named as the call, with the hops before it.
    private static func finished(
        _ last: ProbeResult, request: ProbeRequest, first: ProbeRequest, hops: [RedirectHop], warnings: [String],
        since start: ContinuousClock.Instant
    ) -> ProbeResult {
        guard !hops.isEmpty else { return last }
        var result = last
        result.hops = hops + [RedirectHop(last, request: request, location: nil)]
        result.redirects = hops.map { ProbeRedirect(status: $0.httpStatus ?? 0, location: $0.location ?? "") }
        result.target = first.target
        result.method = first.method
        result.warnings = warnings
        let total = (ContinuousClock.now - start).inSeconds * 1000
        if var timings = result.timings {
            timings.total = total
            result.timings = timings
        } else {
            result.timings = ProbeTimings(total: total)
        }
        return result
    }
}
