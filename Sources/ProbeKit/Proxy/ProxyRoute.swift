/// How one target is reached: through which proxy, or directly and why.
public enum ProxyRoute: Sendable, Equatable, CustomStringConvertible {
    /// Through `server`, chosen by `source` (`--proxy` or an environment variable).
    case proxy(ProxyServer, source: ProxySource)
    /// Directly, for `reason`.
    case direct(DirectReason)

    /// Why a target is reached without a proxy.
    public enum DirectReason: Sendable, Equatable {
        /// No `--proxy` and no proxy variable for the target's scheme.
        case noProxyConfigured
        /// `--proxy ""`: proxies switched off, also those of the environment.
        case proxyDisabled(source: ProxySource)
        /// A proxy was configured, but an entry of the no-proxy list matched the host.
        case bypassed(NoProxyMatch)
        /// A PAC script's answer said `DIRECT` (`--pac`); the entry as written.
        case pac(entry: String)
    }

    /// The proxy, or `nil` when direct.
    public var server: ProxyServer? {
        if case .proxy(let server, _) = self { return server }
        return nil
    }

    /// One line, never with a password: `"proxy http://user:***@proxy.internal:3128 (from
    /// https_proxy)"`, `"direct: no proxy configured"`, `"direct: --proxy \"\" disables
    /// proxies"` or `"direct: NO_PROXY entry \".internal\" matches api.internal"`.
    public var description: String {
        switch self {
        case .proxy(let server, let source):
            "proxy \(server) (from \(source))"
        case .direct(.noProxyConfigured):
            "direct: no proxy configured"
        case .direct(.proxyDisabled(let source)):
            "direct: \(source) \"\" disables proxies"
        case .direct(.bypassed(let match)):
            "direct: \(match)"
        case .direct(.pac):
            "direct: the PAC's answer says DIRECT"
        }
    }
}
