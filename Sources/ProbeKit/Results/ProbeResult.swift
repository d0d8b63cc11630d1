import Curl

/// Everything a report says about one call: what was asked, which way it went, how it ended,
/// and the facts collected on the way.
///
/// No field ever holds a password or a credential header value: the target and proxy are
/// redacted where they stand (`user:***@host`), messages are built without secrets, and text
/// from libcurl or a server loses the user info of any URL in it (``redacted()``).
public struct ProbeResult: Sendable, Equatable {
    /// The target URL, redacted.
    public var target: String
    /// The request method.
    public var method: String
    /// Which repetition of the request this was, from 1.
    public var repetition: Int
    /// The engine that made the call: `"curl"` or `"urlsession"`.
    public var engine: String
    /// The route taken, or `nil` when it could not be decided.
    public var route: ProxyRoute?
    /// How the call ended.
    public var outcome: ProbeOutcome
    /// The facts in plain words: the failure's message, or why and when the call was cancelled;
    /// `nil` for a success.
    public var message: String?
    /// Things that passed but deserve attention, e.g. `"domain name not verified: ..."`.
    public var warnings: [String]
    /// The final response's status code, when one arrived.
    public var httpStatus: Int?
    /// The proxy's status code for CONNECT, when a tunnel was asked for and answered.
    public var connectStatus: Int?
    /// TLS facts for `https://` targets whose handshake began: always the target's.
    public var tls: TLSFacts? {
        get { tlsBox?.value }
        set { tlsBox = newValue.map(TLSFactsBox.init) }
    }
    /// TLS facts of an `https://` proxy whose handshake began (JSON `proxyTls`).
    public var proxyTLS: TLSFacts? {
        get { proxyTLSBox?.value }
        set { proxyTLSBox = newValue.map(TLSFactsBox.init) }
    }
    // Out of line: a result is copied several times on its way to the report (a million of
    // them in a run cut short), and the two sets of facts are two fifths of its size.
    private var tlsBox: TLSFactsBox?
    private var proxyTLSBox: TLSFactsBox?
    /// Phase timings, when the call started.
    public var timings: ProbeTimings?
    /// The address connected to, `ip:port` (IPv6 in brackets); the proxy's through a proxy.
    public var remoteAddress: String?
    /// False for a call cancelled before it started: reports give it a compact record
    /// (target, outcome, cause), as a run of a million targets cancelled by `--deadline` has
    /// nothing else to say about most of them.
    public var started = true
    /// How many body bytes the final response carried, when one arrived.
    public var bodyByteCount: Int?
    /// The final response's `Content-Length` (RFC 9110 section 8.6), when it sent one.
    public var contentLength: Int?
    /// The final response's HTTP version, `"1.0"`, `"1.1"`, `"2"` or `"3"`, when one arrived.
    public var httpVersion: String?
    /// The redirects followed with `-L`, in order; empty without `-L` or when none came.
    public var redirects: [ProbeRedirect] = []
    /// With a redirect followed, every hop of the call in order, the last being the one the
    /// result's own fields (route, status, TLS, Apple verdicts) describe; empty otherwise.
    public var hops: [RedirectHop] = []
    /// What each Apple client stack would do with the certificate shown (``AppleClientVerdicts``);
    /// empty for `http://` targets and calls whose TLS showed no certificate.
    public var appleClients: [AppleClientVerdict] = []
    /// Apple's requirements checked on the certificate and connection (``AppleTrustRules``);
    /// empty when ``appleClients`` is.
    public var appleTrust: [AppleTrustCheck] = []
    /// The subject of the root the chain leads to that this machine trusts and the device the
    /// verdicts are for does not (``TrustFacts/rootOnlyThisMachineTrusts``).
    public var appleRootOnlyThisMachineTrusts: String?
    /// For `https://` targets with a certificate: whether it is the target's or an
    /// interceptor's (``InterceptionProducts``), with the evidence; `nil` otherwise.
    public var certificateFrom: CertificateSource?
    /// With `--pac`, how the PAC script routed the call (for a call that followed redirects, its
    /// last hop); `nil` otherwise.
    public var pac: PACDecision?
    /// libcurl's trace of the call as curl's `-v` prints it (`* ` text, `> ` sent, `< `
    /// received), credentials redacted; `nil` unless asked for (`-v`).
    public var trace: String?

    /// A result.
    ///
    /// - Parameters: one per property.
    public init(
        target: String, method: String, repetition: Int = 1, engine: String, route: ProxyRoute?, outcome: ProbeOutcome,
        message: String? = nil, warnings: [String] = [], httpStatus: Int? = nil, connectStatus: Int? = nil,
        tls: TLSFacts? = nil, timings: ProbeTimings? = nil, remoteAddress: String? = nil, proxyTLS: TLSFacts? = nil
    ) {
        self.proxyTLSBox = proxyTLS.map(TLSFactsBox.init)
        self.target = target
        self.method = method
        self.repetition = repetition
        self.engine = engine
        self.route = route
        self.outcome = outcome
        self.message = message
        self.warnings = warnings
        self.httpStatus = httpStatus
        self.connectStatus = connectStatus
        self.tlsBox = tls.map(TLSFactsBox.init)
        self.timings = timings
        self.remoteAddress = remoteAddress
    }

    /// The result of a call that was cancelled before it finished or started.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - engine: the engine's name.
    ///   - route: the route, when known.
    ///   - cause: why it was cancelled.
    ///   - inFlight: whether the call had started.
    /// - Returns: a ``ProbeOutcome/cancelled(_:)`` result.
    public static func cancelled(
        _ request: ProbeRequest, engine: String, route: ProxyRoute?, cause: CancellationCause, inFlight: Bool
    ) -> ProbeResult {
        var result = ProbeResult(
            target: request.target, method: request.method, repetition: request.repetition, engine: engine,
            route: inFlight ? route : nil, outcome: .cancelled(cause),
            message: "\(inFlight ? "cancelled in flight" : "not started"): \(cause)")
        result.started = inFlight
        return result
    }

    /// `"proxy"` or `"direct"`; `nil` when the route is unknown.
    public var routeKind: String? { route.map { $0.server == nil ? "direct" : "proxy" } }

    /// The proxy, redacted (`http://user:***@host:port`), when the route went through one.
    public var proxy: String? { route?.server?.description }

    /// The no-proxy entry that sent the call around a configured proxy, e.g. `".internal"`.
    public var noProxyMatch: NoProxyMatch? {
        if case .direct(.bypassed(let match)) = route { return match }
        return nil
    }

    /// The same result with the text that may quote libcurl or a server (messages, warnings,
    /// hints) cleaned by structure: the user info of every URL in it and the values of
    /// credential header lines are hidden (``Redaction/text(_:)``); nothing else changes.
    ///
    /// - Returns: the cleaned result.
    public func redacted() -> ProbeResult {
        // A call that never started holds only words of the probe's own.
        guard started else { return self }
        var copy = self
        copy.message = message.map(Redaction.text)
        copy.warnings = warnings.map(Redaction.text)
        if case .failed(var reason) = outcome {
            reason.message = Redaction.text(reason.message)
            reason.hint = reason.hint.map(Redaction.text)
            copy.outcome = .failed(reason)
        }
        copy.pac = pac?.redacted()
        for index in copy.hops.indices { copy.hops[index].pac = copy.hops[index].pac?.redacted() }
        return copy
    }
}

/// TLS facts held by reference, read-only: a copy of a result shares them.
private final class TLSFactsBox: Sendable, Equatable {
    let value: TLSFacts

    init(_ value: TLSFacts) {
        self.value = value
    }

    static func == (lhs: TLSFactsBox, rhs: TLSFactsBox) -> Bool { lhs.value == rhs.value }
}
