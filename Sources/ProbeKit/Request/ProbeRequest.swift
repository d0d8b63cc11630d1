import Curl
import Foundation
import Serialization

/// One call to make: a URL, a method, extra header fields, and what the response must look like.
public struct ProbeRequest: Sendable, Equatable {
    /// The target, `http://` or `https://`.
    public let url: URL
    /// The method, e.g. `"GET"` (RFC 9110 section 9); `HEAD` asks for no body.
    public var method: String
    /// Extra request header fields (`-H`).
    public var headers: [RequestHeader]
    /// What the response must look like.
    public var expectations: Expectations
    /// Which repetition of the same request this is, from 1 (`--repeat`).
    public var repetition: Int
    /// The request body, sent whatever the method (blackbox's `body`); `nil` sends none.
    public var body: [UInt8]?
    /// The host as libcurl's transfer names it (``URLParts``), without brackets, decoded, an
    /// IPv4 address in any form as a dotted quad (`127.1` is `127.0.0.1`), e.g.
    /// `"api.example.com"`, `"::1"` or `"fe80::1%eth0"`: the name the no-proxy list is matched
    /// against, the certificate must name, and messages show.
    public let host: String
    /// The port libcurl connects to: the URL's, else 443 for `https` and 80 for `http` (RFC
    /// 9110 sections 4.2.1-4.2.2).
    public let port: Int

    /// A request.
    ///
    /// - Parameters:
    ///   - url: an `http://` or `https://` URL with a host.
    ///   - method: an RFC 9110 token, `GET` by default.
    ///   - headers: extra header fields.
    ///   - expectations: what the response must look like.
    ///   - repetition: which repetition this is, from 1.
    /// - Throws: ``ProbeInputError/invalidTarget(_:reason:)`` for another scheme, no host, a
    ///   port above 65535, a host that decodes to letters outside ASCII, or a URL libcurl's
    ///   transfer would refuse (``URLParts``: user info that decodes to a control character, too),
    ///   ``ProbeInputError/invalidMethod(_:reason:)`` for a method that is not a token.
    public init(
        url: URL, method: String = "GET", headers: [RequestHeader] = [], expectations: Expectations = .default,
        repetition: Int = 1
    ) throws(ProbeInputError) {
        // Redacted as malformed text: an invalid URL's structure may not be where its user meant.
        func invalid(_ reason: String) -> ProbeInputError {
            .invalidTarget(Redaction.malformedURL(url.absoluteString), reason: reason)
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw invalid("the URL must start with http:// or https://")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw invalid("the URL has no host")
        }
        if let port = url.port, !(0...65_535).contains(port) {
            // Foundation parses any number; curl's URL parser refuses these (CURLUE_BAD_PORT_NUMBER).
            throw invalid("the port must be a number from 0 to 65535")
        }
        let parts: URLParts
        switch URLParts.parse(url.absoluteString, reading: .transfer) {
        case .success(let read): parts = read
        case .failure(.badPort):
            throw invalid("the port must be a number from 0 to 65535")
        case .failure(.badIPv6):
            let inBrackets = url.host(percentEncoded: false) ?? ""
            let reason =
                IPAddress.v4(parsing: inBrackets.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) != nil
                ? "brackets hold IPv6 addresses only; write an IPv4 address without them"
                : "[\(inBrackets)] is not an IPv6 address"
            throw invalid(reason)
        case .failure(.undecodable):
            // libcurl's transfer refuses it too (CURLE_URL_MALFORMAT), but only once it starts.
            throw invalid("the user name or password decodes to a control character")
        case .failure(.other(let words)):
            throw invalid("libcurl refuses it: \(words)")
        }
        if parts.host.unicodeScalars.contains(where: { !$0.isASCII }) {
            // Percent-encoded UTF-8 (`b%C3%BCcher.example`): libcurl decodes it and converts it
            // to its ASCII form (libidn2) only when it connects, so its no-proxy list sees the
            // ASCII form; ask for that form, as for a host written in UTF-8.
            throw invalid(Self.nonASCIIHostReason)
        }
        guard HTTPToken.isToken(Substring(method)) else {
            throw .invalidMethod(
                method, reason: "a method is a token of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 section 9.1)")
        }
        self.url = url
        // libcurl's host and port, not Foundation's: they are what the call uses, and the
        // route must be chosen for that host (`http://127.1/` goes to 127.0.0.1).
        self.host = parts.hostWithoutBrackets + (parts.zoneID.map { "%" + $0 } ?? "")
        self.port = parts.port ?? (scheme == "https" ? 443 : 80)
        self.method = method
        self.headers = headers
        self.expectations = expectations
        self.repetition = repetition
    }

    /// A request for a URL given as text, read by ``targetURL(_:)``.
    ///
    /// - Parameters:
    ///   - text: the URL, e.g. `"https://api.example.com/health"`.
    ///   - method: the method.
    ///   - headers: extra header fields.
    ///   - expectations: what the response must look like.
    ///   - repetition: which repetition this is, from 1.
    /// - Throws: ``ProbeInputError/invalidTarget(_:reason:)`` as ``targetURL(_:)``, and as
    ///   ``init(url:method:headers:expectations:repetition:)``.
    public init(
        parsing text: String, method: String = "GET", headers: [RequestHeader] = [],
        expectations: Expectations = .default, repetition: Int = 1
    ) throws(ProbeInputError) {
        try self.init(
            url: try Self.targetURL(text), method: method, headers: headers, expectations: expectations,
            repetition: repetition)
    }

    /// A target's URL, sent as written but for what may not appear raw in a URL:
    /// ``PercentEncoding/encodingWhatMustBe(_:)`` encodes a space, `|`, `{`, `}`, `"` or a
    /// non-ASCII letter and keeps every `%XX` escape, as Go's client does in a path (it sends
    /// the query raw). The one rule for the probe's and the exporter's targets. (curl sends `|`
    /// and `{}` raw; a server reads both forms as the same, RFC 3986 section 6.2.2.2.)
    ///
    /// - Parameter text: URL text, e.g. `"https://api.example.com/q?f={a|b}"`.
    /// - Returns: The URL to send, e.g. `https://api.example.com/q?f=%7Ba%7Cb%7D`.
    /// - Throws: ``ProbeInputError/invalidTarget(_:reason:)`` for a host outside ASCII, or text
    ///   that is not a URL even so (brackets outside an IPv6 host, a second `#`).
    public static func targetURL(_ text: String) throws(ProbeInputError) -> URL {
        guard !hasNonASCIIHost(text) else {
            throw .invalidTarget(Redaction.malformedURL(text), reason: nonASCIIHostReason)
        }
        // Never let Foundation "repair" the text: it would percent-encode the `%` of escapes
        // already there (`%41` -> `%2541`) and send another URL than the one given.
        guard let url = URL(string: PercentEncoding.encodingWhatMustBe(text), encodingInvalidCharacters: false),
            url.scheme != nil
        else {
            let reason =
                URL(string: text) != nil
                ? "it holds characters a URL may not hold where they are (such as [ ] outside an IPv6 host, or a second #); encode them, e.g. %5B"
                : "not a URL; write it as https://HOST[:PORT]/PATH"
            throw .invalidTarget(Redaction.malformedURL(text), reason: reason)
        }
        return url
    }

    /// Why a target or proxy whose host holds letters outside ASCII is refused.
    static let nonASCIIHostReason =
        "the host name holds letters outside ASCII; write it in its ASCII (punycode) form, e.g. xn--bcher-kva.example for b\u{FC}cher.example"

    /// Whether the authority of URL text (after `://`, before the path) holds a non-ASCII
    /// character: an internationalized host name, which a URL carries in its ASCII form
    /// (RFC 5890). curl converts it with libidn2; Foundation's parser does so only in the mode
    /// that also re-encodes the rest of the text, which probe does not use (see below).
    private static func hasNonASCIIHost(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        let authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last ?? authority[...]
        return host.unicodeScalars.contains { !$0.isASCII }
    }

    /// The URL with any password replaced: `https://user:***@host/path`.
    public var target: String { Redaction.url(url.absoluteString) }

    /// Whether the URL is `https://`.
    public var isHTTPS: Bool { url.scheme?.lowercased() == "https" }

    /// `host:port`, IPv6 in brackets: what CONNECT asks for (RFC 9110 section 9.3.6).
    public var authority: String { HostPort.joined(host, port) }

}
