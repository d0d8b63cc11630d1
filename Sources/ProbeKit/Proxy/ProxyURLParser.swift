import Curl
import Serialization

/// Parses proxy text the way libcurl 7.88.1's `parse_proxy` does (see ``ProxyServer``); its
/// messages show the text through ``Redaction/malformedURL(_:)``.
enum ProxyURLParser {
    /// SOCKS schemes libcurl accepts as proxies and stagebuild does not probe.
    static let socksSchemes: Set<String> = ["socks", "socks4", "socks4a", "socks5", "socks5h"]

    /// Host name prefixes from which curl's URL parser guesses a scheme (`CURLU_GUESS_SCHEME`).
    private static let guessedSchemes = ["ftp", "dict", "ldap", "imap", "smtp", "pop3"]

    /// Characters curl 7.88.1 refuses in a host name (`lib/urlapi.c`, `hostname_check`).
    private static let forbiddenHostCharacters = Set(" \r\n\t/:#?!@{}[]\\$'\"^`*<>=;,+&()%".unicodeScalars)

    static func parse(_ text: String, source: ProxySource) throws(ProxyConfigurationError) -> ProxyServer {
        // Redacted only for a message: a run parses the proxy text for every call.
        func invalid(_ reason: String) -> ProxyConfigurationError {
            .invalidProxy(proxy: Redaction.malformedURL(text), source: source, reason: reason)
        }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw invalid("it contains blanks or control characters")
        }
        // The structure is read from ASCII text: every other character percent-encoded as its
        // UTF-8, which the credentials and the host decode again. Swift compares Characters, and
        // a combining mark after `@`, `/` or `?` makes one of them, hiding the delimiter (found
        // by the `proxy-url` fuzz target: a `?` in a password went unnoticed). Every ASCII byte
        // is kept.
        var rest = Substring(PercentEncoding.encoded(text, keeping: { _ in true }))
        var scheme: String?
        if let (written, afterColon) = splitScheme(rest) {
            let slashes = afterColon.prefix { $0 == "/" }.count
            guard (1...3).contains(slashes) else {
                throw invalid("write one to three slashes after \"\(written):\"")
            }
            scheme = written.lowercased()
            rest = afterColon.dropFirst(slashes)
        }

        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        // A proxy has no path, query or fragment: a `/`, `?` or `#` before the last `@`, or a
        // second `@`, is an unencoded character of the user name or password.
        if let lastAt = rest.lastIndex(of: "@") {
            let unencoded = "@/?#".filter { rest[..<lastAt].contains($0) }
            if !unencoded.isEmpty { throw invalid(Self.unencodedCredentialsReason(unencoded)) }
        }
        let tail = rest[authorityEnd...]
        if !(tail.isEmpty || tail == "/") {
            throw invalid("a proxy URL has no path, query or fragment: remove \"\(tail.prefix(1))\" and what follows")
        }
        var authority = rest[..<authorityEnd]
        var credentials: ProxyCredentials?
        if let at = authority.firstIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            // Empty user info ("http://@proxy") is an empty user name to curl, which then
            // sends `Proxy-Authorization: Basic Og==` (":"): so does the probe.
            credentials = try parseCredentials(userInfo, invalid: invalid)
        }

        let (hostText, portText) = try splitHostAndPort(authority, invalid: invalid)
        var host = try parseHost(hostText, invalid: invalid)
        var port: Int?
        if let portText {
            if portText.isEmpty {
                // curl ignores an empty port only after a scheme ("http://proxy:").
                guard scheme != nil else { throw invalid("a port number must follow \":\"") }
            } else {
                guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText), number <= 65_535
                else { throw invalid("the port must be a number from 0 to 65535") }
                port = number
            }
        }
        // The host as libcurl names it, which its connection and TLS checks use: its URL
        // parser writes an IPv4 address in any form as a dotted quad (`0x7f.1`, `127.1` and
        // `2130706433` are 127.0.0.1) and shortens an IPv6 address (`0:0::1` is `::1`).
        switch URLParts.parse(text, reading: .proxy) {
        case .success(let parts): host = parts.hostWithoutBrackets + (parts.zoneID.map { "%" + $0 } ?? "")
        case .failure(let problem): throw invalid("libcurl refuses it: \(problem)")
        }
        // libcurl names an address before it decodes the name (`1.%35` stays `1.5`, which its
        // resolver then reads as 1.0.0.5): a decoded name is read once more, so it is named as
        // the same host written plainly (found by the `proxy-url` fuzz target).
        if hostText.contains("%" as Character), !host.contains(":" as Character),
            case .success(let plain) = URLParts.parse("http://" + host, reading: .proxy)
        {
            host = plain.hostWithoutBrackets
        }
        let resolvedScheme = scheme ?? guessScheme(host: hostText)
        guard let proxyScheme = ProxyServer.Scheme(rawValue: resolvedScheme) else {
            throw .unsupportedProxyScheme(scheme: resolvedScheme, proxy: Redaction.malformedURL(text), source: source)
        }
        return ProxyServer(scheme: proxyScheme, host: host, port: port, credentials: credentials)
    }

    /// Why text with unencoded characters in its user info is refused, naming each character
    /// and the `%XX` form to write instead (RFC 3986 section 3.2.1; curl refuses it too).
    ///
    /// - Parameter characters: The characters found, e.g. `@/`.
    static func unencodedCredentialsReason(_ characters: String) -> String {
        let named = characters.map { "\"\($0)\"" }.joined(separator: " and ")
        let encoded = characters.map { $0.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined() }
        return "the user name or password holds \(named), which must be written \(encoded.joined(separator: " and "))"
    }

    // MARK: - Parts

    /// `scheme` and the text after `scheme:` when the text starts with a scheme followed by
    /// `:/`, else `nil`. As curl 7.88.1's `Curl_is_absolute_url` with scheme guessing: up to 40
    /// letters, digits, `+`, `-` or `.` (a digit may come first, so `127.0.0.1:/x` has the
    /// scheme `127.0.0.1`).
    private static func splitScheme(_ text: Substring) -> (String, Substring)? {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return nil }
        let name = text[..<colon]
        guard name.count <= 40,
            name.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+.-".unicodeScalars.contains($0) })
        else { return nil }
        let after = text[text.index(after: colon)...]
        guard after.first == "/" else { return nil }
        return (String(name), after)
    }

    private static func guessScheme(host: Substring) -> String {
        let lowered = host.lowercased()
        return guessedSchemes.first { lowered.hasPrefix($0 + ".") } ?? "http"
    }

    private static func parseCredentials(
        _ userInfo: Substring, invalid: (String) -> ProxyConfigurationError
    ) throws(ProxyConfigurationError) -> ProxyCredentials {
        let colon = userInfo.firstIndex(of: ":")
        let userText = colon.map { userInfo[..<$0] } ?? userInfo
        guard let user = percentDecoded(userText) else {
            throw invalid("the user name is not valid percent-encoded UTF-8 without control characters")
        }
        guard let colon else { return ProxyCredentials(user: user, password: nil) }
        guard let password = percentDecoded(userInfo[userInfo.index(after: colon)...]) else {
            throw invalid("the password is not valid percent-encoded UTF-8 without control characters")
        }
        return ProxyCredentials(user: user, password: password)
    }

    /// Host text and port text (`nil` without a `:`), brackets kept on the host.
    private static func splitHostAndPort(
        _ authority: Substring, invalid: (String) -> ProxyConfigurationError
    ) throws(ProxyConfigurationError) -> (Substring, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("the IPv6 address has no \"]\"") }
            let host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.first == ":" else { throw invalid("only \":PORT\" may follow \"]\"") }
            return (host, after.dropFirst())
        }
        guard let colon = authority.firstIndex(of: ":") else { return (authority, nil) }
        if authority[authority.index(after: colon)...].contains(":" as Character) {
            throw invalid("an IPv6 address goes in brackets, e.g. http://[::1]:3128")
        }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    private static func parseHost(
        _ text: Substring, invalid: (String) -> ProxyConfigurationError
    ) throws(ProxyConfigurationError) -> String {
        if text.hasPrefix("[") {
            var inner = String(text.dropFirst().dropLast())
            var zone = ""
            if let percent = inner.firstIndex(of: "%") {
                // RFC 6874 writes the zone id "%25NAME"; curl also takes "%NAME".
                let written = inner[percent...]
                let name = written.hasPrefix("%25") && written.count > 3 ? written.dropFirst(3) : written.dropFirst()
                guard !name.isEmpty else { throw invalid("the IPv6 zone id after \"%\" is empty") }
                // libcurl's hostname_check reads at most 15 bytes of a zone id.
                guard name.utf8.count <= 15 else { throw invalid("the IPv6 zone id is longer than 15 characters") }
                // RFC 6874 section 2: a zone id is unreserved characters (an interface name);
                // libcurl takes anything but "]", "@" and "/" included, which no interface has.
                guard name.unicodeScalars.allSatisfy(\.isUnreserved) else {
                    throw invalid("the IPv6 zone id holds characters other than letters, digits and -._~")
                }
                zone = "%" + name
                inner = String(inner[..<percent])
            }
            guard IPAddress.v6(parsing: inner) != nil else { throw invalid("\"[\(inner)]\" is not an IPv6 address") }
            return inner + zone
        }
        guard !text.isEmpty else { throw invalid("the host name is missing") }
        guard let host = percentDecoded(text),
            !host.unicodeScalars.contains(where: { forbiddenHostCharacters.contains($0) })
        else { throw invalid("the host name contains a character curl does not allow in host names") }
        // A DEL passes libcurl's URL parser but no resolver; written back for CURLOPT_PROXY it
        // is a control character curl refuses (found by the `proxy-url` fuzz target: `%7ftp.8`).
        guard !host.unicodeScalars.contains("\u{7F}") else { throw invalid("the host name decodes to a control character (DEL)") }
        // libcurl converts such a name with libidn2 when it connects and fails the call (CURLE 3)
        // when that fails; as for a target, the ASCII form is asked for before any call.
        guard host.unicodeScalars.allSatisfy(\.isASCII) else { throw invalid(ProbeRequest.nonASCIIHostReason) }
        return host
    }

    /// RFC 3986 percent-decoding (``PercentEncoding/decodedBytes(_:)``); `nil` when the result
    /// is not UTF-8 or has a control character below U+0020 (curl's `REJECT_CTRL`, which lets
    /// DEL through).
    private static func percentDecoded(_ text: Substring) -> String? {
        let bytes = PercentEncoding.decodedBytes(text)
        guard !bytes.contains(where: { $0 < 0x20 }) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension Unicode.Scalar {
    /// `A`-`Z` or `a`-`z`.
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    /// `0`-`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    /// RFC 3986's unreserved characters: letters, digits and `-._~`.
    fileprivate var isUnreserved: Bool { isASCIILetter || isASCIIDigit || "-._~".unicodeScalars.contains(self) }
}
