import Serialization

/// One entry of a PAC script's answer, e.g. `PROXY a.corp:3128` or `DIRECT` (Netscape's PAC
/// definition; `HTTPS`, `SOCKS4` and `SOCKS5` as Chrome, Firefox and Apple's CFNetwork take them;
/// `HTTP` as Firefox takes it, a synonym of `PROXY`).
public struct PACEntry: Sendable, Equatable, CustomStringConvertible {
    /// The entry's keyword, upper case as the definition writes it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No proxy.
        case direct = "DIRECT"
        /// An HTTP proxy.
        case proxy = "PROXY"
        /// An HTTP proxy (Firefox's word).
        case http = "HTTP"
        /// An HTTP proxy spoken to over TLS.
        case https = "HTTPS"
        /// A SOCKS proxy, version 4 by the definition, 5 on Apple platforms and Chrome.
        case socks = "SOCKS"
        /// A SOCKS version 4 proxy.
        case socks4 = "SOCKS4"
        /// A SOCKS version 5 proxy.
        case socks5 = "SOCKS5"

        /// The port when the entry names none: 80 for `PROXY`/`HTTP`, 443 for `HTTPS`, 1080 for
        /// SOCKS (Chrome's `ProxyServer::GetDefaultPortForScheme`).
        var defaultPort: Int? {
            switch self {
            case .direct: nil
            case .proxy, .http: 80
            case .https: 443
            case .socks, .socks4, .socks5: 1080
            }
        }
    }

    /// The keyword.
    public var kind: Kind
    /// The proxy's host (IPv6 without brackets); `nil` for `DIRECT`.
    public var host: String?
    /// The proxy's port; `nil` for `DIRECT`.
    public var port: Int?

    /// Reads one entry.
    ///
    /// - Parameter text: e.g. `"PROXY a.corp:3128"`, `"proxy [::1]:8080"`, `"DIRECT"`; the keyword in
    ///   any case, blanks around it.
    /// - Returns: `nil` when the keyword is unknown, `DIRECT` has a host, a proxy has none, or
    ///   the port is not 1-65535.
    public init?(parsing text: Substring) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first, let kind = Kind(rawValue: first.uppercased()) else { return nil }
        self.kind = kind
        if kind == .direct {
            guard words.count == 1 else { return nil }
            return
        }
        guard words.count == 2, let (host, port) = Self.hostAndPort(words[1], defaultPort: kind.defaultPort ?? 80) else {
            return nil
        }
        self.host = host
        self.port = port
    }

    /// `"PROXY a.corp:3128"`, `"DIRECT"`.
    public var description: String {
        guard let host, let port else { return kind.rawValue }
        return "\(kind.rawValue) \(HostPort.joined(host, port))"
    }

    /// The route a call takes for this entry, or `nil` for a SOCKS proxy, which the probe does
    /// not call through.
    public var route: ProxyRoute? {
        guard let host else { return .direct(.pac(entry: description)) }
        let scheme: ProxyServer.Scheme
        switch kind {
        case .proxy, .http: scheme = .http
        case .https: scheme = .https
        case .direct, .socks, .socks4, .socks5: return nil
        }
        return .proxy(ProxyServer(scheme: scheme, host: host, port: port), source: .pac(entry: description))
    }

    private static func hostAndPort(_ text: Substring, defaultPort: Int) -> (String, Int)? {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else {
            return nil
        }
        guard let portText else { return (String(host), defaultPort) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), (1...65_535).contains(port)
        else { return nil }
        return (String(host), port)
    }
}
