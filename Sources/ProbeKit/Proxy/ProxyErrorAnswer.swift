import Foundation
import Serialization

/// What a proxy's own error answer says happened, so that the report's words follow it: the
/// evidence that the proxy made the answer (``ProxyAnswer/evidence(in:)``), what its error code
/// means — squid's `X-Squid-Error` (its `ERR_*` page names) or the error type of an RFC 9209
/// `Proxy-Status` field (section 2.3) — which proxy of a chain made it (`Via`, RFC 9110 section
/// 7.6.3), and the words of its error page.
struct ProxyErrorAnswer: Equatable {
    /// What went wrong on the proxy's side of the call.
    enum Happening: Equatable {
        /// It could not resolve the target's name (`ERR_DNS_FAIL`, `dns_error`, `dns_timeout`).
        case nameNotResolved
        /// It could not connect to the target (`ERR_CONNECT_FAIL`, `connection_refused`,
        /// `destination_unavailable`, `destination_ip_unroutable`).
        case connectFailed
        /// Its connection to the target timed out (`connection_timeout`).
        case connectTimedOut
        /// It reached the target, sent the request, and no answer came within its read timeout
        /// (`ERR_READ_TIMEOUT`, `ERR_LIFETIME_EXP`, `connection_read_timeout`, `http_response_timeout`).
        case answerTooSlow
        /// Its TLS with the target failed: it refused the target's certificate, or the
        /// handshake (`ERR_SECURE_CONNECT_FAIL`, `tls_certificate_error`, `tls_protocol_error`,
        /// `tls_alert_received`).
        case targetTLSFailed
        /// It connected to the target, whose TLS handshake did not finish in its time (squid's
        /// page: `TLS code: TLS_CONNECT_TIMEOUT`).
        case targetTLSTimedOut
        /// The target's answer broke off or was no valid HTTP (`ERR_READ_ERROR`,
        /// `ERR_ZERO_SIZE_OBJECT`, `ERR_INVALID_RESP`, `connection_terminated`, `http_response_incomplete`, …).
        case answerBroken
        /// It found no way on: its next hop or parent proxy (`ERR_CANNOT_FORWARD`,
        /// `ERR_GATEWAY_FAILURE`, `destination_not_found`, `connection_limit_reached`).
        case noWayOn
        /// Its rules deny the request (`ERR_ACCESS_DENIED`, `ERR_FORWARDING_DENIED`,
        /// `http_request_denied`, `destination_ip_prohibited`).
        case denied
        /// Its own upstream proxy asked it for credentials (mitmproxy's page: "Upstream proxy …
        /// refused HTTP CONNECT request: 407 Proxy Authentication Required").
        case upstreamProxyAuthentication
        /// It failed on its own (`proxy_internal_error`, `proxy_configuration_error`, `proxy_loop_detected`).
        case proxyFault
        /// Its evidence names nothing more specific.
        case unknown
    }

    /// Why the answer is the proxy's own, as `"Name: value"`, e.g. `"X-Squid-Error: ERR_READ_TIMEOUT 0"`.
    var evidence: String
    /// What its error code says happened.
    var happening: Happening
    /// The `Via` entries' names, the one nearest the target first (RFC 9110 section 7.6.3: each
    /// proxy appends its own), e.g. `["parent-squid", "child-squid"]`; empty without `Via`.
    var via: [String]
    /// The error page's own words about what happened, markup removed; `nil` when it says none.
    var pageWords: String?

    /// Reads a proxy's answer; `nil` when nothing shows that the proxy made it.
    ///
    /// - Parameters:
    ///   - fields: the answer's header fields.
    ///   - body: its body bytes (the first 64 KiB are read).
    init?(fields: [(name: String, value: String)], body: [UInt8]) {
        guard let evidence = ProxyAnswer.evidence(in: fields) else { return nil }
        self.evidence = evidence
        if let squid = ProxyAnswer.value("x-squid-error", in: fields) {
            happening = Self.squidHappening[String(squid.prefix { $0 != " " })] ?? .unknown
        } else if let status = ProxyAnswer.value("proxy-status", in: fields) {
            (happening, intermediary) = Self.proxyStatusError(status)
        } else {
            happening = .unknown
        }
        via = Self.viaNames(ProxyAnswer.values("via", in: fields))
        pageWords = ProxyErrorPage.words(of: body)
        if happening == .targetTLSFailed, pageWords?.contains("TLS_CONNECT_TIMEOUT") == true {
            happening = .targetTLSTimedOut
        }
        serverProduct = ProxyAnswer.value("server", in: fields).map { String($0.lowercased().prefix { $0 != "/" && $0 != " " }) }
    }

    /// squid's error page names (`/usr/share/squid/errors/templates`) by what they report.
    static let squidHappening: [String: Happening] = [
        "ERR_DNS_FAIL": .nameNotResolved, "ERR_CONNECT_FAIL": .connectFailed, "ERR_READ_TIMEOUT": .answerTooSlow,
        "ERR_LIFETIME_EXP": .answerTooSlow, "ERR_SECURE_CONNECT_FAIL": .targetTLSFailed, "ERR_READ_ERROR": .answerBroken,
        "ERR_WRITE_ERROR": .answerBroken, "ERR_ZERO_SIZE_OBJECT": .answerBroken, "ERR_INVALID_RESP": .answerBroken,
        "ERR_CANNOT_FORWARD": .noWayOn, "ERR_GATEWAY_FAILURE": .noWayOn, "ERR_ACCESS_DENIED": .denied,
        "ERR_FORWARDING_DENIED": .denied, "ERR_CONFLICT_HOST": .denied, "ERR_SOCKET_FAILURE": .proxyFault,
        "ERR_SHUTTING_DOWN": .proxyFault,
    ]

    /// RFC 9209 section 2.3's error types by what they report.
    static let proxyStatusErrors: [String: Happening] = [
        "dns_timeout": .nameNotResolved, "dns_error": .nameNotResolved, "destination_not_found": .noWayOn,
        "destination_unavailable": .connectFailed, "destination_ip_prohibited": .denied,
        "destination_ip_unroutable": .connectFailed, "connection_refused": .connectFailed,
        "connection_terminated": .answerBroken, "connection_timeout": .connectTimedOut,
        "connection_read_timeout": .answerTooSlow, "connection_write_timeout": .answerBroken,
        "connection_limit_reached": .noWayOn, "tls_protocol_error": .targetTLSFailed,
        "tls_certificate_error": .targetTLSFailed, "tls_alert_received": .targetTLSFailed,
        "http_request_error": .denied, "http_request_denied": .denied, "http_response_incomplete": .answerBroken,
        "http_response_header_section_size": .answerBroken, "http_response_header_size": .answerBroken,
        "http_response_body_size": .answerBroken, "http_response_trailer_section_size": .answerBroken,
        "http_response_trailer_size": .answerBroken, "http_response_transfer_coding": .answerBroken,
        "http_response_content_coding": .answerBroken, "http_response_timeout": .answerTooSlow,
        "http_upgrade_failed": .answerBroken, "http_protocol_error": .answerBroken,
        "proxy_internal_response": .unknown, "proxy_internal_error": .proxyFault,
        "proxy_configuration_error": .proxyFault, "proxy_loop_detected": .proxyFault,
    ]

    /// The happening of a `Proxy-Status` value and the intermediary that reported it: the
    /// `error` parameter of its first member that has one, and that member's name (RFC 9209
    /// section 2: a list, the member nearest the origin first, each an intermediary's name and
    /// its parameters; a member without the name is read too).
    static func proxyStatusError(_ value: String) -> (Happening, intermediary: String?) {
        for member in value.split(separator: ",") {
            let parts = member.split(separator: ";")
            for parameter in parts {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingHTTPWhitespace() }
                guard pair.count == 2, pair[0].lowercased() == "error" else { continue }
                let name = parts.first.map { $0.trimmingHTTPWhitespace() }.flatMap { $0.contains("=") ? nil : $0 }
                let happening =
                    proxyStatusErrors[pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()]
                    ?? .unknown
                return (happening, name)
            }
        }
        return (.unknown, nil)
    }

    /// The intermediary a `Proxy-Status` member names for the error: it may be the configured
    /// proxy or one nearer the origin (a CDN before it); `nil` without one.
    var intermediary: String?

    /// The received-by names of `Via` values, in order (`1.1 parent (squid/5.7)` gives `parent`).
    static func viaNames(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.compactMap { entry in
            let words = entry.split(whereSeparator: \.isHTTPWhitespace)
            return words.count >= 2 ? String(words[1]) : nil
        }
    }

    /// Whether the evidence shows a proxy wrote the answer even when it came inside a TLS
    /// tunnel: an error page field (`X-Squid-Error`, `Proxy-Status`), which a proxy that only
    /// tunnels cannot write there. A `Server` naming proxy software does not: an origin behind a
    /// reverse proxy sends that on every answer.
    var provesInterception: Bool { !evidence.hasPrefix("Server:") }

    /// The proxy software the answer names: squid for `X-Squid-Error`, else the product of a
    /// `Server` that is the evidence (`tinyproxy/1.11.1` gives `tinyproxy`); `nil` when none.
    var product: String? {
        if evidence.hasPrefix("X-Squid-Error") { return "squid" }
        return evidence.hasPrefix("Server:") ? serverProduct : nil
    }

    /// The evidence read from a page alone, for an interceptor's answer that carries no error
    /// field (mitmproxy's pages): what the page's words name.
    ///
    /// - Parameters:
    ///   - evidence: why the answer is the proxy's, in words.
    ///   - body: the page.
    init(evidence: String, body: [UInt8]) {
        self.evidence = evidence
        via = []
        pageWords = ProxyErrorPage.words(of: body)
        // mitmproxy: "Certificate verify failed: certificate has expired", "Upstream proxy
        // 127.0.0.1:3128 refused HTTP CONNECT request: 407 Proxy Authentication Required".
        let words = pageWords?.lowercased() ?? ""
        happening =
            words.contains("upstream proxy") && words.contains("407")
            ? .upstreamProxyAuthentication
            : words.contains("certificate") ? .targetTLSFailed : .unknown
    }

    private var serverProduct: String?

    /// The proxy of a chain that made the answer, when `Via` shows more than one: the entry
    /// nearest the target. `nil` for one proxy or none.
    var chainedProxy: String? { via.count >= 2 ? via.first : nil }

    /// `"(EVIDENCE; the page says: WORDS)"`-style detail for a message.
    var detail: String {
        evidence + (pageWords.map { "; its page says: \($0)" } ?? "")
    }
}

/// The words of a proxy's HTML error page that say what happened: squid's pages hold them in
/// the elements with the ids `error`, `sysmsg` and `data`; any other page gives its text
/// without markup, styles and scripts. Bounded: the first 64 KiB, 300 characters out.
enum ProxyErrorPage {
    static func words(of body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let html = String(decoding: body.prefix(65_536), as: UTF8.self)
        // squid's `data` sits inside `sysmsg` on some pages and beside it on others.
        var parts: [String] = []
        for id in ["error", "sysmsg", "data"] {
            guard let part = element(withID: id, in: html).map(plainText), !part.isEmpty,
                !parts.contains(where: { $0.contains(part) })
            else { continue }
            parts.append(part)
        }
        let words = parts.isEmpty ? plainText(html) : parts.joined(separator: " ")
        guard !words.isEmpty else { return nil }
        return words.count > 300 ? String(words.prefix(299)) + "…" : words
    }

    /// The content of the element whose `id` attribute is `id`, up to its closing tag.
    static func element(withID id: String, in html: String) -> String? {
        guard let attribute = html.range(of: "id=\"\(id)\""),
            let tagStart = html[..<attribute.lowerBound].lastIndex(of: "<"),
            let contentStart = html[attribute.upperBound...].firstIndex(of: ">")
        else { return nil }
        let name = html[html.index(after: tagStart)...].prefix { $0.isLetter || $0.isNumber }
        let rest = html[html.index(after: contentStart)...]
        let end = rest.range(of: "</\(name)>")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Text without tags, comments, styles or scripts, character references for `&lt;`,
    /// `&gt;`, `&amp;`, `&quot;` and `&nbsp;` read, white space collapsed.
    static func plainText(_ html: String) -> String {
        var text = html
        for (open, close) in [("<!--", "-->"), ("<style", "</style>"), ("<script", "</script>")] {
            while let start = text.range(of: open, options: .caseInsensitive) {
                let end = text.range(of: close, options: .caseInsensitive, range: start.upperBound..<text.endIndex)
                text.removeSubrange(start.lowerBound..<(end?.upperBound ?? text.endIndex))
            }
        }
        var words = ""
        var inTag = false
        for character in text {
            switch character {
            case "<": inTag = true
            case ">":
                inTag = false
                words += " "
            default: if !inTag { words.append(character.isWhitespace ? " " : character) }
            }
        }
        for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&nbsp;", " "), ("&amp;", "&")] {
            words = words.replacingOccurrences(of: reference, with: character)
        }
        return words.split(separator: " ").joined(separator: " ")
    }
}

/// What shows that an answer came from a proxy behind the configured one: `Via` with two or
/// more entries (each proxy appends its own, RFC 9110 section 7.6.3; the first is nearest the
/// target). squid's `X-Cache-Lookup` is no evidence: it names a squid's first port, not the one
/// a request came to, so a squid with several ports would look like a chain.
public struct ProxyChainEvidence: Sendable, Equatable {
    /// The proxy that answered, as the evidence names it.
    public var asking: String
    /// The evidence in words, e.g. `"Via: parent, child"`.
    public var evidence: String

    /// Reads the evidence; `nil` when nothing shows a chain.
    ///
    /// - Parameters:
    ///   - fields: the answer's header fields.
    public init?(fields: [(name: String, value: String)]) {
        let via = ProxyErrorAnswer.viaNames(ProxyAnswer.values("via", in: fields))
        if via.count >= 2, let first = via.first {
            asking = first
            evidence = "Via: \(via.joined(separator: ", "))"
            return
        }
        return nil
    }
}
