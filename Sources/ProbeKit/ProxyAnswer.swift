import Foundation

/// Tells an answer the proxy made up itself from the target's answer that it forwarded.
///
/// A forwarded response also carries the proxy's `Via` (RFC 9110 section 7.6.3), so `Via`
/// proves nothing. What does:
/// - `407` itself: only a proxy asks for proxy credentials (RFC 9110 section 15.5.8), with
///   `Proxy-Authenticate` (section 11.7.1);
/// - `Proxy-Status` with an `error` parameter (RFC 9209 section 2.1.1);
/// - squid's `X-Squid-Error`;
/// - a `Server` field naming forward-proxy software (squid, tinyproxy, mitmproxy, privoxy),
///   which an origin behind it would not send.
enum ProxyAnswer {
    /// Forward proxies whose own error pages name them in `Server`.
    private static let proxyProducts = ["squid", "tinyproxy", "mitmproxy", "privoxy"]

    /// The field that shows `fields` belong to an answer the proxy made itself, as
    /// `"Name: value"`, or `nil`.
    static func evidence(in fields: [(name: String, value: String)]) -> String? {
        func value(_ name: String) -> String? {
            fields.first { $0.name.lowercased() == name }?.value
        }
        if let squid = value("x-squid-error") { return "X-Squid-Error: \(squid)" }
        if let status = value("proxy-status"), status.contains("error=") { return "Proxy-Status: \(status)" }
        if let server = value("server") {
            let product = server.lowercased().prefix { $0 != "/" && $0 != " " }
            if proxyProducts.contains(String(product)) { return "Server: \(server)" }
        }
        return nil
    }

    /// The `Proxy-Authenticate` challenge, e.g. `Basic realm="probe"`, or `nil`.
    static func challenge(in fields: [(name: String, value: String)]) -> String? {
        fields.first { $0.name.lowercased() == "proxy-authenticate" }?.value
    }

    /// The status line without the HTTP version: `"407 Proxy Authentication Required"`, or the
    /// bare code when the line has no reason phrase.
    static func status(line: String?, code: Int) -> String {
        guard let line, let space = line.firstIndex(of: " ") else { return "\(code)" }
        let rest = line[line.index(after: space)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        return rest.isEmpty ? "\(code)" : rest
    }
}
