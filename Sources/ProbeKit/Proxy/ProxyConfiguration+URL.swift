import Curl
import Foundation

extension ProxyConfiguration {
    /// The route curl would take to `url` (see ``route(scheme:host:)``).
    ///
    /// - Parameter url: the target, e.g. `https://api.example.com/health`; its scheme and the
    ///   host as libcurl's transfer reads it are used (``URLParts``: decoded, an IPv6 host
    ///   without brackets, an IPv4 address in any form as a dotted quad), or Foundation's host
    ///   when libcurl refuses the URL.
    /// - Returns: the proxy with the setting that chose it, or direct with the reason.
    /// - Throws: ``ProxyConfigurationError`` as ``route(scheme:host:)``.
    public func route(for url: URL) throws(ProxyConfigurationError) -> ProxyRoute {
        let host =
            switch URLParts.parse(url.absoluteString, reading: .transfer) {
            case .success(let parts): parts.hostWithoutBrackets + (parts.zoneID.map { "%" + $0 } ?? "")
            case .failure: url.host(percentEncoded: false) ?? ""
            }
        return try route(scheme: url.scheme ?? "", host: host)
    }
}
