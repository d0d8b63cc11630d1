import Curl

/// What every call of a run shares: the proxy settings, the TLS policy, fixed addresses and
/// time limits.
public struct ProbeSettings: Sendable, Equatable {
    /// `--connect-timeout` when not given, in seconds.
    public static let defaultConnectTimeout = 10.0
    /// `--max-time` when not given, in seconds.
    public static let defaultMaxTime = 30.0

    /// The proxy settings (command line and environment) from which each call's route comes,
    /// unless a PAC script chooses it (``pac``).
    public var proxy: ProxyConfiguration
    /// The PAC script that chooses each call's route (`--pac`), or `nil`.
    public var pac: PACSettings?
    /// Credentials for a proxy whose URL carries none (`-U`/`--proxy-user`, curl's
    /// `CURLOPT_PROXYUSERPWD`): a PAC script's entries cannot carry any.
    public var proxyUser: ProxyCredentials?
    /// Whether `http://` targets go through a CONNECT tunnel too (`--proxytunnel`,
    /// `CURLOPT_HTTPPROXYTUNNEL`); `https://` targets always do.
    public var forcesTunnel: Bool
    /// How TLS peers are checked.
    public var security: SecurityPolicy
    /// Fixed addresses (`--resolve`).
    public var resolve: [ResolveEntry]
    /// `--connect-timeout` in seconds, or `nil` when not given (then ``defaultConnectTimeout``):
    /// the limit up to a usable connection, the proxy's CONNECT answer and the TLS handshake
    /// included (`CURLOPT_CONNECTTIMEOUT_MS`).
    public var connectTimeout: Double?
    /// `--max-time` in seconds, or `nil` when not given (then ``defaultMaxTime``): the limit
    /// for the whole call (`CURLOPT_TIMEOUT_MS`).
    public var maxTime: Double?
    /// The scheme a proxy's 407 is answered with (`--proxy-basic`, the default, ... `--proxy-anyauth`).
    public var proxyAuthentication: ProxyAuthentication = .basic
    /// The `User-Agent` of every request and CONNECT (`-A`; the CLI's default is
    /// `stagebuild/VERSION`, as curl sends `curl/VERSION`).
    public var userAgent = "stagebuild"
    /// Header fields for the proxy only (`--proxy-header`): sent with CONNECT, never to the target.
    public var proxyHeaders: [RequestHeader] = []
    /// Whether each result carries libcurl's trace of the call (`-v`), credentials redacted.
    public var collectsTrace = false
    /// Whether 3xx answers with `Location` are followed (`-L`), and how many at most
    /// (`--max-redirs`, 50 by default as curl's).
    public var followsRedirects = false
    /// The most redirects followed with ``followsRedirects``.
    public var maxRedirects = 50
    /// The Apple client stacks to give a verdict for on an `https://` call (`--client`), in
    /// report order; all four by default.
    public var appleClients: [AppleClient] = AppleClient.allCases
    /// The device and app the Apple client verdicts are for: roots installed on it
    /// (`--device-ca`; `--cacert` stands for one too) and the app's ATS exception (`--ats-exception`).
    public var appleDevice = AppleDevice()
    /// `CURLOPT_CONNECT_TO` entries (`HOST:PORT:TO-HOST:TO-PORT`): where to connect instead of
    /// the URL's host, which stays the name TLS asks for and checks (blackbox's
    /// `tls_config.server_name`, read by the exporter).
    public var connectTo: [String] = []
    /// Whether an `https://` call through a proxy also makes one direct TLS handshake with the
    /// target (`--compare-direct`), to tell its own certificate from an interceptor's.
    public var comparesDirect = false
    /// The targets the run may send requests to, checked again for every redirect before it is
    /// followed (the exporter's `--allow-target`); `nil` allows any.
    public var allowedTargets: TargetFilter?
    /// The HTTP version asked for (the exporter's `enable_http2: false` asks for HTTP/1.1);
    /// `nil` for libcurl's default, HTTP/2 where TLS negotiates it (`CURL_HTTP_VERSION_2TLS`).
    public var httpVersion: EasyOption.HTTPVersion?
    /// The content codings asked for and decoded (the exporter's `compression`); `nil` for none.
    public var acceptEncoding: String?
    /// One address family only (the exporter's `preferred_ip_protocol` with
    /// `ip_protocol_fallback: false`); `nil` tries every address of a name.
    public var ipFamily: EasyOption.IPFamily?
    /// Whether a target's `.` and `..` path segments are sent as written (the exporter, as Go's
    /// client sends them); `false` removes them, as curl does unless `--path-as-is`.
    public var keepsDotSegments = false
    /// Whether only the header fields a request names are sent, without the ones libcurl adds
    /// (`Accept: */*`, and `Content-Type: application/x-www-form-urlencoded` with a body): the
    /// exporter, as Go's client sends neither; `false` sends them, as curl does.
    public var omitsCurlDefaultFields = false
    /// The seconds a redirected call has left for its next hop: each transfer's limits are cut
    /// to it, while messages keep naming ``maxTime``. `nil` for a call's first request.
    var remainingTime: Double?

    /// Settings.
    ///
    /// - Parameters: one per property.
    public init(
        proxy: ProxyConfiguration = ProxyConfiguration(), forcesTunnel: Bool = false, security: SecurityPolicy = .default,
        resolve: [ResolveEntry] = [], connectTimeout: Double? = nil, maxTime: Double? = nil
    ) {
        self.proxy = proxy
        self.forcesTunnel = forcesTunnel
        self.security = security
        self.resolve = resolve
        self.connectTimeout = connectTimeout
        self.maxTime = maxTime
    }

    /// The connect limit in force, seconds.
    public var effectiveConnectTimeout: Double { connectTimeout ?? Self.defaultConnectTimeout }

    /// The whole-call limit in force, seconds.
    public var effectiveMaxTime: Double { maxTime ?? Self.defaultMaxTime }

    /// The route of a request; a proxy text curl would reject becomes an error here, before any
    /// call is made.
    ///
    /// - Parameter request: the request.
    /// - Returns: the route.
    /// - Throws: ``ProxyConfigurationError`` for unusable proxy text.
    public func route(for request: ProbeRequest) throws(ProxyConfigurationError) -> ProxyRoute {
        withProxyUser(try proxy.route(scheme: request.url.scheme ?? "", host: request.host))
    }

    /// The route with ``proxyUser`` given to a proxy that has no credentials of its own.
    ///
    /// - Parameter route: a route.
    /// - Returns: the same route, its proxy with credentials when it had none and ``proxyUser`` is set.
    public func withProxyUser(_ route: ProxyRoute) -> ProxyRoute {
        guard case .proxy(var server, let source) = route, server.credentials == nil, let proxyUser else { return route }
        server.credentials = proxyUser
        return .proxy(server, source: source)
    }

    /// Whether a request goes through a CONNECT tunnel on this route.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - route: its route.
    /// - Returns: `true` through a proxy for `https://` targets, or with ``forcesTunnel``.
    public func tunnels(_ request: ProbeRequest, on route: ProxyRoute) -> Bool {
        route.server != nil && (request.isHTTPS || forcesTunnel)
    }
}
