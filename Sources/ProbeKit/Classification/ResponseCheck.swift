/// Judges a response that arrived: the proxy's own refusals first, then the expected statuses,
/// then header and body expectations. Shared by both engines.
struct ResponseCheck {
    var request: ProbeRequest
    var route: ProxyRoute
    /// Whether the call went through a CONNECT tunnel (then every response is the target's).
    var tunnel: Bool
    /// The scheme a proxy's 407 was answered with.
    var authentication: ProxyAuthentication = .basic

    /// The failure, or `nil` when the response meets every expectation.
    ///
    /// A status the user listed in `--expect-status` is never taken for a proxy's refusal.
    func failure(
        status: Int, statusLine: String?, fields: [(name: String, value: String)], body: [UInt8], bodyByteCount: Int
    ) -> FailureReason? {
        let expectations = request.expectations
        if !expectations.statuses.contains(status) {
            let shown = ProxyAnswer.status(line: statusLine, code: status)
            if let server = route.server, !tunnel, case .proxy(_, let source) = route {
                if status == 407 {
                    return .proxyAuthenticationRequired(
                        status: shown, challenges: ProxyAnswer.challenges(in: fields), user: server.credentials?.shownName,
                        authentication: authentication, onConnect: false, source: source,
                        chain: ProxyChainEvidence(fields: fields))
                }
                if Self.ownAnswerStatuses.contains(status), let answer = ProxyErrorAnswer(fields: fields, body: body) {
                    return .proxyOwnAnswer(
                        status: shown, code: status, authority: request.authority, host: request.host, onConnect: false,
                        answer: answer)
                }
            }
            return .unexpectedStatus(status: shown, code: status, expected: expectations.statuses)
        }
        return expectations.failure(fields: fields, body: body, bodyByteCount: bodyByteCount)
    }

    /// The statuses a proxy's own error answers carry: it refused (403), or could not get an
    /// answer from the target (500, 502, 503, 504).
    static let ownAnswerStatuses: Set<Int> = [403, 500, 502, 503, 504]

    /// The failure for a proxy's non-2xx answer to CONNECT (RFC 9110 section 9.3.6).
    func connectFailure(status: Int, statusLine: String?, fields: [(name: String, value: String)]) -> FailureReason {
        let shown = ProxyAnswer.status(line: statusLine, code: status)
        switch status {
        case 407:
            let source: ProxySource
            if case .proxy(_, let chosenBy) = route { source = chosenBy } else { source = .option("--proxy") }
            return .proxyAuthenticationRequired(
                status: shown, challenges: ProxyAnswer.challenges(in: fields), user: route.server?.credentials?.shownName,
                authentication: authentication, onConnect: true, source: source,
                chain: ProxyChainEvidence(fields: fields))
        case 403, 500...599:
            if let answer = ProxyErrorAnswer(fields: fields, body: []) {
                return .proxyOwnAnswer(
                    status: shown, code: status, authority: request.authority, host: request.host, onConnect: true,
                    answer: answer)
            }
            // No evidence, but only the proxy answers CONNECT.
            if status == 403 {
                return .proxyForbidden(status: shown, authority: request.authority, onConnect: true, evidence: nil)
            }
            return .proxyBadGateway(status: shown, authority: request.authority, onConnect: true, evidence: nil)
        default:
            return .connectRefused(status: shown, authority: request.authority)
        }
    }
}
