/// A proxy setting that curl would not use, with the reason in words.
///
/// The proxy text in each case is redacted (`user:***@host`): a password never appears.
public enum ProxyConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a proxy URL libcurl 7.88.1 accepts ("Unsupported proxy syntax").
    /// - `proxy`: the redacted text; `source`: where it came from; `reason`: what is wrong.
    case invalidProxy(proxy: String, source: ProxySource, reason: String)
    /// The scheme is neither `http` nor `https`. SOCKS schemes are curl's but not stagebuild's;
    /// any other scheme curl rejects too ("Unsupported proxy scheme").
    /// - `scheme`: the scheme, lower case, written or guessed; `proxy`: the redacted text.
    case unsupportedProxyScheme(scheme: String, proxy: String, source: ProxySource)

    /// One line a user can act on, e.g. `invalid proxy "http://proxy:99999" (from --proxy):
    /// the port must be a number from 0 to 65535`.
    public var description: String {
        switch self {
        case .invalidProxy(let proxy, let source, let reason):
            return "invalid proxy \"\(proxy)\" (from \(source)): \(reason)"
        case .unsupportedProxyScheme(let scheme, let proxy, let source):
            let hint: String
            if ProxyURLParser.socksSchemes.contains(scheme) {
                hint = "stagebuild probes through http:// and https:// proxies only (curl would use SOCKS here)"
            } else if !proxy.lowercased().hasPrefix(scheme + ":") {
                hint = "curl guesses \(scheme):// for a host name starting with \"\(scheme).\"; write http://\(proxy)"
            } else {
                hint = "a proxy URL starts with http:// or https://"
            }
            return "unsupported proxy scheme \"\(scheme)\" in \"\(proxy)\" (from \(source)): \(hint)"
        }
    }
}
