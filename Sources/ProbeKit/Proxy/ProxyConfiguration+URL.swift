import Foundation

extension ProxyConfiguration {
    /// The route curl would take to `url` (see ``route(scheme:host:)``).
    ///
    /// - Parameter url: the target, e.g. `https://api.example.com/health`; its scheme and
    ///   percent-decoded host are used (an IPv6 host without brackets).
    /// - Returns: the proxy with the setting that chose it, or direct with the reason.
    /// - Throws: ``ProxyConfigurationError`` as ``route(scheme:host:)``.
    public func route(for url: URL) throws(ProxyConfigurationError) -> ProxyRoute {
        try route(scheme: url.scheme ?? "", host: url.host(percentEncoded: false) ?? "")
    }
}
