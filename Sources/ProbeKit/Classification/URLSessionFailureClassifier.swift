import Curl
import Serialization

/// Names the failure of a URLSession call from the `URLError` code and the text
/// FoundationNetworking puts in its description: libcurl's `CURLOPT_ERRORBUFFER` words
/// (FoundationNetworking's `MultiHandle` maps only a few `CURLcode`s to `URLError` codes and
/// reports the rest as `-1 unknown`).
struct URLSessionFailureClassifier {
    var request: ProbeRequest
    var route: ProxyRoute?
    var settings: ProbeSettings
    /// Whether the `https://` proxy's own chain fails the system's trust (a look at it): a TLS
    /// failure then is the proxy's, whatever the target's scheme.
    var proxyChainRefused = false

    /// Whether the failure in `description` is one a look at an `https://` proxy decides:
    /// a certificate problem of a call to an `https://` target through one.
    func needsProxyLook(description: String) -> Bool {
        route?.server?.scheme == .https && request.isHTTPS
            && (description.contains("SSL certificate problem") || description.contains("does not match target host name")
                || description.contains("no alternative certificate subject name matches"))
    }

    /// The failure for a `URLError` code and description.
    /// The most redirects FoundationNetworking follows in one task.
    static let redirectLimit = 20

    func failure(code: Int, description: String) -> FailureReason {
        if code == AppleClientError.badURL.code {
            return FailureReason.urlSessionRefusedURL(host: request.host, detail: description)
        }
        var reason = classify(code: code, description: description)
        let observed = AppleClientError.urlError(code: code)
        if let expected = reason.appleError, expected != observed {
            reason.appleError = observed.noting("FoundationNetworking on Linux; an app on Apple platforms gets \(expected)")
        } else {
            reason.appleError = observed
        }
        return reason
    }

    private func classify(code: Int, description: String) -> FailureReason {
        let server = route?.server
        let source: ProxySource
        if case .proxy(_, let chosenBy)? = route { source = chosenBy } else { source = .option("--proxy") }
        let tunnel = route.map { settings.tunnels(request, on: $0) } ?? false
        let proxyAddress = server.map { HostPort.joined($0.host, $0.port) } ?? ""
        let check = ResponseCheck(request: request, route: route ?? .direct(.noProxyConfigured), tunnel: tunnel)
        // TLS on a call to an http:// target can only be the https:// proxy's; to an https://
        // one, it is when the proxy's own chain fails.
        let tlsHop: ProbeHop = server?.scheme == .https && (!request.isHTTPS || proxyChainRefused) ? .proxy : .target
        let tlsPeer = tlsHop == .proxy ? proxyAddress : request.authority

        // FoundationNetworking follows at most 20 redirects of its own, whatever --max-redirs says.
        if code == AppleClientError.httpTooManyRedirects.code || description.contains("too many HTTP redirects") {
            var reason = FailureReason.tooManyRedirects(limit: min(settings.maxRedirects, Self.redirectLimit), location: nil)
            if settings.maxRedirects > Self.redirectLimit {
                reason.message += "; FoundationNetworking follows at most \(Self.redirectLimit) whatever --max-redirs says"
            }
            return reason
        }
        if let status = connectStatus(in: description) {
            return check.connectFailure(status: status, statusLine: nil, fields: [])
        }
        if description.contains("Could not resolve proxy") {
            return .proxyNameNotResolved(proxyHost: server?.host ?? "", source: source, tunnel: tunnel, detail: description)
        }
        if description.contains("Could not resolve host") || code == AppleClientError.cannotFindHost.code {
            return .targetNameNotResolved(host: request.host, detail: description)
        }
        if code == AppleClientError.cannotConnectToHost.code || description.contains("Failed to connect to") {
            if server != nil {
                return .proxyUnreachable(proxyAddress: proxyAddress, source: source, tunnel: tunnel, detail: description)
            }
            return .connectFailed(authority: request.authority, detail: description)
        }
        if code == AppleClientError.timedOut.code {
            let limit = Seconds.text(settings.effectiveMaxTime)
            return .urlSessionTimedOut(atProxy: server != nil, limit: limit)
        }
        if description.contains("does not match target host name")
            || description.contains("no alternative certificate subject name matches")
        {
            return .hostNameMismatch(
                hop: tlsHop, host: tlsHop == .proxy ? server?.host ?? "" : request.host, names: [],
                certificateFrom: InterceptionProducts.origin(issuer: nil, throughProxy: server != nil))
        }
        if let range = description.range(of: "SSL certificate problem: ") {
            let problem = String(description[range.upperBound...])
            if problem.contains("expired") { return .certificateExpired(hop: tlsHop, notAfter: nil) }
            if problem.contains("not yet valid") { return .certificateNotYetValid(hop: tlsHop, notBefore: nil) }
            return .certificateNotTrusted(
                hop: tlsHop, problem: problem, issuer: nil,
                certificateFrom: InterceptionProducts.origin(issuer: nil, throughProxy: server != nil))
        }
        if description.contains("Empty reply from server") || code == AppleClientError.badServerResponse.code {
            return .noResponse(hop: server != nil && !tunnel ? .proxy : .target, detail: description)
        }
        if description.contains("SSL") || description.contains("TLS") {
            return .tlsHandshakeFailed(hop: tlsHop, authority: tlsPeer, detail: description)
        }
        return .callFailed(hop: .target, detail: description)
    }

    /// The proxy's CONNECT status from libcurl's words, e.g. `"CONNECT tunnel failed, response 407"`.
    func connectStatus(in description: String) -> Int? {
        for marker in ["CONNECT tunnel failed, response ", "Received HTTP code "] {
            guard let range = description.range(of: marker) else { continue }
            let digits = description[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if let status = Int(digits) { return status }
        }
        return nil
    }

    /// What is known of TLS: FoundationNetworking verifies chain and name always and shows no
    /// certificate.
    func tlsFacts(reason: FailureReason?) -> TLSFacts? {
        // A failure at the proxy's TLS: the tunnel never opened, no target certificate was seen.
        guard request.isHTTPS, reason?.hop != .proxy else { return nil }
        // A response came: the handshake verified both.
        guard let reason, reason.code != .unexpectedStatus, reason.code != .expectationFailed else {
            return TLSFacts(chainVerified: true, nameVerified: true)
        }
        switch reason.code.certificateCheck {
        case .name?: return TLSFacts(chainVerified: true, nameVerified: false)
        case .chain?: return TLSFacts(chainVerified: false)
        // No handshake is known to have finished (FoundationNetworking pins nothing).
        case .pin?, nil: return nil
        }
    }

    /// The TLS facts of an `https://` proxy whose TLS failed: its certificate from the look at
    /// it (``proxyChainRefused``), or what the reason says; `nil` for another proxy or failure.
    ///
    /// - Parameters:
    ///   - reason: the call's failure.
    ///   - proxyCertificate: the proxy's leaf from a look at it, if one was taken.
    func proxyTLSFacts(reason: FailureReason?, proxyCertificate: PeerCertificate?) -> TLSFacts? {
        guard route?.server?.scheme == .https, let reason, reason.hop == .proxy else { return nil }
        var facts = CurlFailureClassifier.facts(of: proxyCertificate)
        facts.secondLook = proxyCertificate != nil
        switch reason.code.certificateCheck {
        case .chain?: facts.chainVerified = false
        case .name?: facts.nameVerified = false
        case .pin?, nil: return proxyCertificate == nil ? nil : facts
        }
        return facts
    }
}
