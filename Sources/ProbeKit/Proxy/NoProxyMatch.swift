/// The entry of a no-proxy list that sent a host around the proxy.
public struct NoProxyMatch: Sendable, Equatable, CustomStringConvertible {
    /// The entry as written, e.g. `".internal"`, `"10.0.0.0/8"` or `"*"`.
    public var entry: String
    /// The host it matched.
    public var host: String
    /// Where the list came from: `--noproxy`, `no_proxy` or `NO_PROXY`.
    public var source: ProxySource
    /// The proxy that was not used.
    public var bypassedProxy: ProxyServer?

    /// A match.
    ///
    /// - Parameters:
    ///   - entry: the matching entry as written.
    ///   - host: the target host.
    ///   - source: the list's origin.
    ///   - bypassedProxy: the proxy that would have been used, when its text was valid.
    public init(entry: String, host: String, source: ProxySource, bypassedProxy: ProxyServer? = nil) {
        self.entry = entry
        self.host = host
        self.source = source
        self.bypassedProxy = bypassedProxy
    }

    /// `NO_PROXY entry ".internal" matches api.internal` (or `--noproxy "*" matches every host`).
    public var description: String {
        if entry == "*" { return "\(source) \"*\" matches every host" }
        return "\(source) entry \"\(entry)\" matches \(host)"
    }
}
