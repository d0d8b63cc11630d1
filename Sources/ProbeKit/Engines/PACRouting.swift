import Foundation
import PAC

/// Routes a request as a device with a PAC script does: the script's answer for the request's
/// URL, then its entries in order, each one a call of its own through that proxy (or direct), the
/// next tried only after a failure devices fail over on.
///
/// Which failures fail over is Chromium's rule (`net/http/proxy_fallback.cc`,
/// `CanFalloverToNextProxy`; Apple's CFNetwork is closed, and tries a PAC's entries in order as
/// well): the proxy's name did not resolve, its port refused or could not be reached, it closed
/// or did not answer in time, or TLS with an `HTTPS` proxy failed; for `DIRECT`, the same of the
/// target. A proxy that answers ends the list, whatever it answers (403, 407, 502): browsers do
/// not fail over on a refused tunnel, and PAC files rely on that to block (crbug.com/680837).
struct PACRouting {
    /// The run's settings; ``ProbeSettings/pac`` is the script.
    let settings: ProbeSettings
    let pac: PACSettings

    /// Makes the call the script routes.
    ///
    /// - Parameters:
    ///   - request: the request (one hop of a call).
    ///   - engine: the engine's name, for results made here.
    ///   - cancellation: the run's switch; no entry is tried once it is on.
    ///   - call: makes the request on a route within the seconds left, as the engine does.
    /// - Returns: the result of the entry that ended the call (its ``ProbeResult/pac`` set), and
    ///   where its answer points when it is a redirect to follow.
    func probe(
        _ request: ProbeRequest, engine: String, cancellation: ProbeCancellation,
        call: (ProxyRoute, _ remaining: Double) -> (result: ProbeResult, location: String?)
    ) -> (result: ProbeResult, location: String?) {
        let started = ContinuousClock.now
        let budget = settings.remainingTime ?? settings.effectiveMaxTime
        let answer: PACAnswer
        do {
            answer = try pac.answer(for: request, resolve: settings.resolve, within: budget) {
                cancellation.cause != nil
            }
        } catch {
            if case .stopped = error, let cause = cancellation.cause {
                return (.cancelled(request, engine: engine, route: nil, cause: cause, inFlight: true), nil)
            }
            var result = failed(request, engine: engine, reason: .pacFailed(script: pac.origin, detail: error.description))
            result.timings = ProbeTimings(total: (ContinuousClock.now - started).inSeconds * 1000)
            return (result, nil)
        }
        var decision = PACDecision(
            script: pac.origin, answer: answer.text, unreadable: answer.unreadable,
            entries: answer.entries.map { PACAttempt(entry: $0, state: .notTried) })
        guard !answer.entries.isEmpty else {
            let detail =
                answer.text.isEmpty
                ? "its answer is empty" : "its answer \"\(PACAnswer.shown(answer.text))\" has no entry a device can use"
            var result = failed(request, engine: engine, reason: .pacFailed(script: pac.origin, detail: detail))
            result.pac = decision
            result.timings = ProbeTimings(total: (ContinuousClock.now - started).inSeconds * 1000)
            return (result, nil)
        }
        var index = 0
        // Every path ends in a return: the last entry is never left.
        while true {
            let entry = answer.entries[index]
            let made: (result: ProbeResult, location: String?)
            if let route = entry.route.map(settings.withProxyUser) {
                made = Self.inPACTerms(call(route, max(budget - (ContinuousClock.now - started).inSeconds, 0.001)))
            } else {
                made = (failed(request, engine: engine, reason: .proxyNotProbed(entry: entry)), nil)
            }
            decision.entries[index].failure = made.result.outcome.failureReason
            decision.entries[index].connectStatus = made.result.connectStatus
            decision.entries[index].remoteAddress = made.result.remoteAddress
            if let reason = made.result.outcome.failureReason, index < answer.entries.count - 1, entry.route != nil,
                cancellation.cause == nil, budget > (ContinuousClock.now - started).inSeconds,
                Self.failsOver(reason, entry: entry)
            {
                decision.entries[index].state = .failedOver
                index += 1
                continue
            }
            if case .cancelled = made.result.outcome {
                decision.entries[index].state = .cancelled
            } else {
                decision.entries[index].state = .ended
            }
            return finished(made, decision: decision, answer: answer, request: request, started: started)
        }
    }

    /// The result of the entry that ended the call, with the decision, the warnings about the
    /// answer and curl's view, and the whole time spent on the script and every entry.
    private func finished(
        _ made: (result: ProbeResult, location: String?), decision: PACDecision, answer: PACAnswer, request: ProbeRequest,
        started: ContinuousClock.Instant
    ) -> (result: ProbeResult, location: String?) {
        var result = made.result
        result.pac = decision
        if !answer.unreadable.isEmpty {
            result.warnings.append(
                "the PAC's answer has entries no device can read, skipped: "
                    + answer.unreadable.map { "\"\(PACAnswer.shown($0))\"" }.joined(separator: ", "))
        }
        if let note = curlNote(request, pacRoute: result.route) { result.warnings.append(note) }
        if var timings = result.timings {
            timings.total = max(timings.total, (ContinuousClock.now - started).inSeconds * 1000)
            result.timings = timings
        }
        return (result, made.location)
    }

    /// A call's result with the hints of a PAC-routed call: a proxy's refusal is bypassed by the
    /// script's `DIRECT`, not `--noproxy`; a device answers a 407 with the credentials stored for
    /// that proxy, which `--proxy-user` stands for (a PAC entry carries none).
    static func inPACTerms(_ made: (result: ProbeResult, location: String?)) -> (result: ProbeResult, location: String?) {
        guard case .failed(var reason) = made.result.outcome, reason.hop == .proxy else { return made }
        switch reason.code {
        case .proxyForbidden:
            reason.hint =
                "the proxy's rules deny this target; ask its administrator to allow it, or make the PAC script answer "
                + "DIRECT for it when it is reachable directly"
        case .proxyAuthenticationRequired:
            reason.hint =
                made.result.route?.server?.credentials == nil
                ? "a device answers with the credentials stored for this proxy (Settings, or the app's URLCredential "
                    + "for its protection space); give them here with --proxy-user USER:PASSWORD"
                : "check the user name and password given with --proxy-user: this proxy did not accept them"
        default:
            return made
        }
        var result = made.result
        result.outcome = .failed(reason)
        return (result, made.location)
    }

    /// Whether a device leaves `entry` for the next one after this failure (the type's rule).
    static func failsOver(_ reason: FailureReason, entry: PACEntry) -> Bool {
        switch reason.code {
        case .proxyNameNotResolved, .proxyUnreachable, .proxyTimeout, .proxyProtocolError:
            true
        case .tlsHandshakeFailed, .certificateNotTrusted, .hostNameMismatch, .certificateExpired, .certificateNotYetValid:
            reason.hop == .proxy
        case .targetNameNotResolved, .connectFailed:
            entry.kind == .direct
        case .timeout:
            entry.kind == .direct && (reason.timeoutPhase == .nameResolution || reason.timeoutPhase == .targetConnect)
        default:
            false
        }
    }

    /// What curl (and Go, Python, Swift on Linux), which ignore PAC, would do with the proxy
    /// settings also given, when those choose anything and another way than the script's.
    private func curlNote(_ request: ProbeRequest, pacRoute: ProxyRoute?) -> String? {
        guard let route = try? settings.proxy.route(scheme: request.url.scheme ?? "", host: request.host),
            route != .direct(.noProxyConfigured), route.server?.url != pacRoute?.server?.url || pacRoute == nil
        else { return nil }
        return "curl, Go and Python do not read PAC scripts: with the proxy variables and options set here they would "
            + "take another way, \(route)"
    }

    private func failed(_ request: ProbeRequest, engine: String, reason: FailureReason) -> ProbeResult {
        ProbeResult(
            target: request.target, method: request.method, repetition: request.repetition, engine: engine, route: nil,
            outcome: .failed(reason), message: reason.message)
    }
}
