extension FailureReason {
    /// A `403` or `5xx` a proxy made itself — answering CONNECT, a forwarded request, or inside
    /// a TLS tunnel it intercepts — in the words its error code chooses
    /// (``ProxyErrorAnswer/Happening``): a target that answered too slowly is a `timeout` at the
    /// target, a refused target certificate is the proxy's TLS with the target, a name the
    /// proxy could not resolve is said as such; only a failure to connect is "could not reach".
    ///
    /// - Parameters:
    ///   - status: the status line without the version, e.g. `"504 Gateway Timeout"`.
    ///   - code: the status code.
    ///   - authority: the target's `host:port`.
    ///   - host: the target's host.
    ///   - onConnect: whether it answered CONNECT.
    ///   - answer: what the answer says happened, and who made it.
    ///   - interceptor: the interceptor that answered inside the tunnel (e.g. `"squid"`), or
    ///     `nil` for an answer outside TLS.
    /// - Returns: the reason.
    static func proxyOwnAnswer(
        status: String, code: Int, authority: String, host: String, onConnect: Bool, answer: ProxyErrorAnswer,
        interceptor: String? = nil
    ) -> FailureReason {
        let who =
            answer.chainedProxy.map { "the proxy \($0), behind the one configured (Via: \(answer.via.joined(separator: ", ")))," }
            ?? interceptor.map { "\($0), which intercepts TLS," }
            ?? answer.intermediary.map { "the intermediary \($0) (the proxy or one nearer the target)" } ?? "the proxy"
        let how =
            onConnect
            ? "it answered CONNECT with \(status)"
            : interceptor != nil ? "it answered inside the TLS tunnel with \(status)" : "its own answer was \(status)"
        let said = "\(how); \(answer.detail)"
        let appleError: AppleClientError? = onConnect ? .httpsProxyConnectionFailure : nil
        if code == 403 && (answer.happening == .denied || answer.happening == .unknown) {
            var reason = FailureReason.proxyForbidden(
                status: status, authority: authority, onConnect: onConnect, evidence: answer.detail)
            if let interceptor { reason.message = "\(interceptor), which intercepts TLS, refused \(authority): \(said)" }
            return reason
        }
        func reason(_ code: FailureCode, _ hop: ProbeHop, _ what: String, _ hint: String) -> FailureReason {
            FailureReason(code: code, hop: hop, message: "\(what) (\(said))", hint: hint, appleError: appleError)
        }
        let reachable = "check that \(authority) is up and reachable from the proxy"
        switch answer.happening {
        case .nameNotResolved:
            return reason(
                .proxyBadGateway, .proxy, "\(who) could not resolve the name \(host)",
                "check the name \(host): the proxy resolves it with its own DNS, which may not know it")
        case .connectFailed:
            return reason(.proxyBadGateway, .proxy, "\(who) could not connect to \(authority)", reachable)
        case .connectTimedOut:
            return reason(.proxyBadGateway, .proxy, "\(who) timed out connecting to \(authority)", reachable)
        case .answerTooSlow:
            return reason(
                .timeout, .target,
                "\(who) reached \(authority) and sent the request, but \(authority) did not answer within the proxy's "
                    + "own read timeout",
                "\(authority) answers too slowly for the proxy: check its response time, or the proxy's read timeout "
                    + "(squid: read_timeout)")
        case .targetTLSFailed:
            return reason(
                .proxyBadGateway, .proxy,
                "\(who) could not make a TLS connection to \(authority): it refused the target's certificate, or the "
                    + "handshake failed",
                "the proxy checks \(authority)'s certificate on the client's behalf: check that certificate (expired, "
                    + "another name, an unknown CA) or the proxy's trust of it")
        case .targetTLSTimedOut:
            return reason(
                .timeout, .target,
                "\(who) connected to \(authority), but its TLS handshake did not finish within the proxy's time",
                "check that \(authority) speaks TLS on that port and answers promptly")
        case .answerBroken:
            return reason(
                .proxyBadGateway, .target,
                "\(who) reached \(authority), but its answer broke off or was no valid HTTP",
                "check the server at \(authority) and its logs")
        case .noWayOn:
            return reason(
                .proxyBadGateway, .proxy,
                "\(who) found no way on to \(authority): its next hop (a parent proxy or gateway) is down or refuses",
                "the proxy's own upstream is at fault: ask its administrator")
        case .denied:
            return reason(
                .proxyForbidden, .proxy, "\(who) refused the request for \(authority) by its rules",
                "ask the proxy's administrator to allow \(authority), or bypass the proxy with --noproxy HOST")
        case .upstreamProxyAuthentication:
            return reason(
                .proxyAuthenticationRequired, .proxy,
                "\(who) could not go on: its own upstream proxy asks it for credentials (407), which it did not give",
                "give the proxy its upstream proxy's credentials (mitmproxy: --upstream-auth USER:PASSWORD; squid: "
                    + "cache_peer ... login=USER:PASSWORD); the credentials in --proxy are not the ones asked for")
        case .proxyFault:
            return reason(.proxyBadGateway, .proxy, "\(who) failed on its own", "ask the proxy's administrator")
        case .unknown:
            return reason(.proxyBadGateway, .proxy, "\(who) could not reach \(authority)", reachable)
        }
    }
}
