import Curl

/// The proxy settings of a run, and the choice of route for each target, exactly as curl
/// 7.88.1 makes it (`lib/url.c`: `create_conn_helper_init_proxy`, `detect_proxy`; curl(1),
/// "ENVIRONMENT" and `--noproxy`).
///
/// The rules, in curl's order:
/// 1. The no-proxy list is `--noproxy` when given (even `""`, which matches nothing and stops
///    the environment's list), else `no_proxy`, else `NO_PROXY`: the lower-case name wins, as
///    curl reads it first. If it matches the target's host (``NoProxyList``), the target is
///    reached directly, whatever proxy was set, `--proxy` included.
/// 2. Else `--proxy` when given: `""` means direct (the environment's proxies are not read),
///    anything else is the proxy (``ProxyServer`` parses it).
/// 3. Else the environment, by the target's scheme in lower case: `<scheme>_proxy`, then
///    `<SCHEME>_PROXY` except for `http` (curl never reads `HTTP_PROXY`: a CGI server sets it
///    from a request's `Proxy:` header, "httpoxy", CVE-2016-5385), then `all_proxy`, then
///    `ALL_PROXY`.
/// 4. Else direct.
///
/// A variable set to the empty string counts as unset (curl's `curl_getenv`). The environment
/// is a parameter: nothing here reads the process environment.
public struct ProxyConfiguration: Sendable, Equatable {
    /// Whether two configurations choose the same routes and name them alike (the setting
    /// names are a tuple, which `Equatable` cannot synthesize for).
    public static func == (left: ProxyConfiguration, right: ProxyConfiguration) -> Bool {
        left.proxy == right.proxy && left.noProxy == right.noProxy && left.environment == right.environment
            && left.settingNames == right.settingNames
    }

    /// The `--proxy` value: `nil` when not given, `""` for direct, else the proxy text.
    public var proxy: String?
    /// The `--noproxy` value: `nil` when not given, else a no-proxy list (`""` for none).
    public var noProxy: String?
    /// The environment variables, by exact name.
    public var environment: [String: String]
    /// The words the caller gave `proxy` and `noProxy` with, which reports and the source
    /// labels name: `--proxy` and `--noproxy` on the command line, a config's own keys
    /// elsewhere (the exporter's `proxy_url` and `no_proxy`).
    public var settingNames = (proxy: "--proxy", noProxy: "--noproxy")

    /// Settings from the command line and the environment.
    ///
    /// - Parameters:
    ///   - proxy: the `--proxy` value, or `nil`.
    ///   - noProxy: the `--noproxy` value, or `nil`.
    ///   - environment: the environment variables, e.g. `ProcessInfo.processInfo.environment`.
    public init(proxy: String? = nil, noProxy: String? = nil, environment: [String: String] = [:]) {
        self.proxy = proxy
        self.noProxy = noProxy
        self.environment = environment
    }

    /// The route curl would take to a target.
    ///
    /// - Parameters:
    ///   - scheme: the target URL's scheme, e.g. `"https"` (case-insensitive).
    ///   - host: the target's host: a name, an IPv4 address, or an IPv6 address with or without
    ///     brackets.
    /// - Returns: the proxy with the setting that chose it, or direct with the reason.
    /// - Throws: ``ProxyConfigurationError`` when the chosen proxy's text is invalid or not
    ///   `http`/`https`. Text that is not used (a bypassed or shadowed variable) is not checked,
    ///   as curl does not parse it either.
    public func route(scheme: String, host: String) throws(ProxyConfigurationError) -> ProxyRoute {
        let candidate = proxyCandidate(scheme: scheme.lowercased())
        if let list = noProxyList, let entry = list.list.entryMatching(host: host) {
            guard let candidate, !candidate.text.isEmpty else {
                return .direct(candidate.map { .proxyDisabled(source: $0.source) } ?? .noProxyConfigured)
            }
            let bypassed = try? ProxyServer(parsing: candidate.text, source: candidate.source)
            return .direct(.bypassed(NoProxyMatch(entry: entry, host: host, source: list.source, bypassedProxy: bypassed)))
        }
        guard let candidate else { return .direct(.noProxyConfigured) }
        guard !candidate.text.isEmpty else { return .direct(.proxyDisabled(source: candidate.source)) }
        return .proxy(try ProxyServer(parsing: candidate.text, source: candidate.source), source: candidate.source)
    }

    /// Notes about how the route of a call was chosen that a user might not expect: the
    /// upper-case `HTTP_PROXY` is ignored on purpose for `http://` targets, as curl does since
    /// httpoxy (CVE-2016-5385: a CGI server sets `HTTP_PROXY` from a request's `Proxy:` header).
    ///
    /// - Parameter scheme: The target's scheme.
    /// - Returns: Notes for the call's `warnings`; usually none.
    public func notes(scheme: String) -> [String] {
        guard scheme.lowercased() == "http", proxy == nil, variable("http_proxy") == nil, let upper = variable("HTTP_PROXY")
        else { return [] }
        return [
            "HTTP_PROXY (\(Redaction.malformedURL(upper))) is ignored on purpose for http:// targets, as curl ignores it "
                + "(httpoxy, CVE-2016-5385); set http_proxy in lower case, or --proxy, to use it"
        ]
    }

    /// The no-proxy list in force and where it came from, or `nil` when there is none.
    public var noProxyList: (list: NoProxyList, source: ProxySource)? {
        if let noProxy { return (NoProxyList(noProxy), .option(settingNames.noProxy)) }
        for name in ["no_proxy", "NO_PROXY"] {
            if let value = variable(name) { return (NoProxyList(value), .environment(name)) }
        }
        return nil
    }

    /// The proxy text curl would use before the no-proxy check, and its source: `--proxy`
    /// (possibly `""`), else the first set variable for `scheme`.
    private func proxyCandidate(scheme: String) -> (text: String, source: ProxySource)? {
        if let proxy { return (proxy, .option(settingNames.proxy)) }
        var names = ["\(scheme)_proxy"]
        if scheme != "http" { names.append("\(scheme.uppercased())_PROXY") }
        names += ["all_proxy", "ALL_PROXY"]
        for name in names {
            if let value = variable(name) { return (value, .environment(name)) }
        }
        return nil
    }

    /// A variable's value, `nil` when unset or empty (curl's `curl_getenv`).
    private func variable(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }
}
