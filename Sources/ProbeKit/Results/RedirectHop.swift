/// One request of a call that followed redirects (`-L`, the exporter's modules): the URL it
/// asked, the way it went, what answered, and the facts of its own TLS session.
///
/// A call that followed `N` redirects has `N + 1` hops; the last is the one whose answer or
/// failure the call reports, and the result's own fields (route, status, TLS, Apple verdicts)
/// describe it. Each hop has its own route decision (the proxy chosen for its URL as curl
/// chooses it per connection), its own TLS policy and its own certificate facts.
public struct RedirectHop: Sendable, Equatable {
    /// The URL this hop asked for, redacted (`user:***@`).
    public var url: String
    /// Whether the URL is `https://`.
    public var isHTTPS: Bool
    /// The method this hop sent (a `303` turns `POST` into `GET`).
    public var method: String
    /// The route this hop took, or `nil` when it could not be decided.
    public var route: ProxyRoute?
    /// The answer's status code, when one arrived.
    public var httpStatus: Int?
    /// The proxy's answer to CONNECT, when this hop tunnelled.
    public var connectStatus: Int?
    /// Where the answer pointed (`Location`, redacted) when the call followed it; `nil` for the
    /// last hop.
    public var location: String?
    /// This hop's TLS facts (an `https://` hop whose handshake began).
    public var tls: TLSFacts?
    /// Whether this hop's certificate is its target's or an interceptor's.
    public var certificateFrom: CertificateSource?
    /// What each Apple client stack would do with this hop's certificate, for this hop's host.
    public var appleClients: [AppleClientVerdict]
    /// This hop's timings, milliseconds from its own start.
    public var timings: ProbeTimings?
    /// The address this hop connected to (the proxy's through a proxy).
    public var remoteAddress: String?
    /// With `--pac`, how the script routed this hop: each hop's URL is its own question.
    public var pac: PACDecision?

    /// The hop a single-request result describes.
    ///
    /// - Parameters:
    ///   - result: The result of this hop's request alone.
    ///   - request: The request it made.
    ///   - location: Where its answer pointed, redacted, when the call followed it.
    public init(_ result: ProbeResult, request: ProbeRequest, location: String?) {
        url = request.target
        isHTTPS = request.isHTTPS
        method = request.method
        route = result.route
        httpStatus = result.httpStatus
        connectStatus = result.connectStatus
        self.location = location
        tls = result.tls
        certificateFrom = result.certificateFrom
        appleClients = result.appleClients
        timings = result.timings
        remoteAddress = result.remoteAddress
        pac = result.pac
    }

    /// A hop known only by its request and answer (the URLSession engine sees no more of the
    /// hops FoundationNetworking follows).
    ///
    /// - Parameters:
    ///   - request: The request this hop made.
    ///   - route: The route its URL takes.
    ///   - httpStatus: The answer's status.
    ///   - location: Where the answer pointed, redacted, when the call followed it.
    public init(request: ProbeRequest, route: ProxyRoute?, httpStatus: Int?, location: String?) {
        url = request.target
        isHTTPS = request.isHTTPS
        method = request.method
        self.route = route
        self.httpStatus = httpStatus
        self.location = location
        appleClients = []
    }
}
