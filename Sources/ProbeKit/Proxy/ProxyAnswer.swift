import Foundation
import Serialization

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
        if let squid = value("x-squid-error", in: fields) { return "X-Squid-Error: \(squid)" }
        if let status = value("proxy-status", in: fields), status.contains("error=") { return "Proxy-Status: \(status)" }
        if let server = value("server", in: fields) {
            let product = server.lowercased().prefix { $0 != "/" && $0 != " " }
            if proxyProducts.contains(String(product)) { return "Server: \(server)" }
        }
        return nil
    }

    /// Every `Proxy-Authenticate` field value, in order (RFC 9110 section 11.7.1).
    static func challenges(in fields: [(name: String, value: String)]) -> [String] {
        values("proxy-authenticate", in: fields)
    }

    /// Every value of a field, in order.
    ///
    /// - Parameters:
    ///   - name: the field name in lower case.
    ///   - fields: the header fields.
    static func values(_ name: String, in fields: [(name: String, value: String)]) -> [String] {
        fields.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// The first value of a field, or `nil` without one.
    ///
    /// - Parameters:
    ///   - name: the field name in lower case.
    ///   - fields: the header fields.
    static func value(_ name: String, in fields: [(name: String, value: String)]) -> String? {
        fields.first { $0.name.lowercased() == name }?.value
    }

    /// The auth-scheme of every challenge the proxy offers, in order, each once (RFC 9110
    /// section 11.6.1: a field may hold several challenges, and several fields may be sent;
    /// a challenge's first token is its scheme, its parameters follow).
    static func offeredSchemes(in challenges: [String]) -> [String] {
        var schemes: [String] = []
        for challenge in challenges {
            // Challenges are separated by commas, but so are a challenge's parameters: a scheme
            // is a token not followed by "=", at the start or after a comma.
            for part in challenge.split(separator: ",") {
                let words = part.split(whereSeparator: \.isHTTPWhitespace)
                guard let first = words.first, !first.contains("="), HTTPToken.isToken(first) else { continue }
                let scheme = String(first)
                if !schemes.contains(where: { $0.lowercased() == scheme.lowercased() }) { schemes.append(scheme) }
            }
        }
        return schemes
    }

    /// The status line without the HTTP version: `"407 Proxy Authentication Required"`, or the
    /// bare code when the line has no reason phrase.
    static func status(line: String?, code: Int) -> String {
        guard let line, let space = line.firstIndex(of: " ") else { return "\(code)" }
        let rest = line[line.index(after: space)...].trimmingHTTPWhitespace()
        return rest.isEmpty ? "\(code)" : rest
    }
}
