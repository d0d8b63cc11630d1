import Serialization

/// A parsed HTTP or HTTPS proxy: scheme, host, port and optional credentials.
///
/// Parsed from text the way libcurl 7.88.1 parses `CURLOPT_PROXY` and the proxy environment
/// variables (`lib/url.c`, `parse_proxy`, through curl's URL parser with "guess scheme"):
/// - `http://` and `https://` proxies; the scheme is case-insensitive. Text without a scheme is
///   `http`, except that curl guesses the scheme from a host name starting with `ftp.`,
///   `dict.`, `ldap.`, `imap.`, `smtp.` or `pop3.`, and then rejects it as a proxy scheme.
///   SOCKS schemes (`socks4`, `socks4a`, `socks5`, `socks5h`) are refused: not probed here.
/// - One to three slashes after `scheme:`.
/// - `user:password@` is percent-decoded (RFC 3986 section 2.1); the password is split at the
///   first `:`; a second `@` is an error. Empty user info (`http://@proxy`) is an empty user
///   name, which curl sends as `Proxy-Authorization: Basic Og==`.
/// - The host may be a name, IPv4, or IPv6 in brackets (with an optional zone id of at most 15
///   characters, `%25eth0` or `%eth0`); a name is percent-decoded and may not contain blanks or
///   any of `/:#?!@{}[]\$'"^`*<>=;,+&()%`. ``host`` is the name libcurl gives it: an IPv4
///   address in any form as a dotted quad (`0x7f.1` is `127.0.0.1`), an IPv6 address shortened.
/// - A scheme is letters, digits, `+`, `-`, `.` followed by `:/` (so `127.0.0.1:/x` names the
///   scheme `127.0.0.1`, which is refused).
/// - The port is decimal digits, at most 65535; an empty port (`http://proxy:`) counts as none
///   after a scheme and is an error without one. Without a port the port is
///   1080 for `http` (`CURL_DEFAULT_PROXY_PORT`) and 443 for `https`
///   (`CURL_DEFAULT_HTTPS_PROXY_PORT`), as libcurl 7.88.1 does.
///
/// Deliberate differences (`Tests/Oracle/README.md`, `URLDocumentedDifferenceTests`): refused
/// here, taken by libcurl 7.88.1, are user info that decodes to a control character below
/// U+0020 (libcurl then ignores the proxy and connects directly), a path, query or fragment
/// (libcurl ignores them; they arise from an unencoded `/`, `?` or `#` in a password), a host
/// holding `%` once decoded (libcurl decodes a proxy host twice), user info or a host that
/// decodes to bytes that are not UTF-8, and a zone id with characters other than RFC 6874's
/// letters, digits and `-._~`.
public struct ProxyServer: Sendable, Equatable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public enum Scheme: String, Sendable, Equatable {
        /// Plain HTTP to the proxy (`CURLPROXY_HTTP`).
        case http
        /// TLS to the proxy (`CURLPROXY_HTTPS`).
        case https

        /// curl's port when the proxy text has none: 1080 for `http`, 443 for `https`.
        public var defaultPort: Int {
            switch self {
            case .http: 1080
            case .https: 443
            }
        }
    }

    /// The protocol spoken to the proxy.
    public var scheme: Scheme
    /// The host name or address, decoded, without brackets (`proxy.internal`, `10.0.0.1`, `::1`).
    public var host: String
    /// The TCP port, 0-65535.
    public var port: Int
    /// The credentials from the user info, or `nil`.
    public var credentials: ProxyCredentials?

    /// A proxy.
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: the host, without brackets for IPv6.
    ///   - port: the TCP port; `nil` for the scheme's default.
    ///   - credentials: user and password, or `nil`.
    public init(scheme: Scheme, host: String, port: Int? = nil, credentials: ProxyCredentials? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
        self.credentials = credentials
    }

    /// Parses proxy text as libcurl 7.88.1 does (rules on the type).
    ///
    /// - Parameters:
    ///   - text: e.g. `"http://user:p%40ss@proxy.internal:3128"` or `"proxy:3128"`.
    ///   - source: where the text came from, for errors.
    /// - Returns: the proxy.
    /// - Throws: ``ProxyConfigurationError/invalidProxy(proxy:source:reason:)`` for text curl
    ///   rejects, ``ProxyConfigurationError/unsupportedProxyScheme(scheme:proxy:source:)`` for a
    ///   scheme other than `http`/`https`.
    public init(parsing text: String, source: ProxySource) throws(ProxyConfigurationError) {
        self = try ProxyURLParser.parse(text, source: source)
    }

    /// The host as it goes in a URL: IPv6 in brackets with the zone id's `%` encoded as `%25`.
    public var hostForURL: String {
        // A Character: with a String, Foundation's `contains` would search through CoreFoundation.
        // An IPv6 zone id's `%` is written `%25` in a URL (RFC 6874 section 2).
        HostPort.bracketed(host.contains(":" as Character) ? host.replacingAll("%", with: "%25") : host)
    }

    /// `scheme://host:port`, without credentials: the value for `CURLOPT_PROXY`.
    public var url: String { "\(scheme.rawValue)://\(hostForURL):\(port)" }

    /// `scheme://user:***@host:port`: the password never shows.
    public var description: String {
        let user = credentials.map { "\($0)@" } ?? ""
        return "\(scheme.rawValue)://\(user)\(hostForURL):\(port)"
    }
}
