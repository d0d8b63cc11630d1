import ProbeKit
import Serialization

/// The proxy URL parser (`ProxyServer(parsing:source:)`, curl's `parse_proxy` rules). For every
/// proxy text it accepts:
/// - the proxy written back as a URL (credentials percent-encoded, host as it goes in a URL)
///   parses to the same proxy;
/// - the proxy's printed form is the same whatever its password, and the same whatever its
///   user name when there is no password (a token): redaction by structure, not by search.
enum ProxyURLFuzz {
    static let target = FuzzTarget(name: "proxy-url", check: check, grow: grow)

    static func check(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        guard let proxy = try? ProxyServer(parsing: text, source: .option("--proxy")) else { return }
        let written = url(of: proxy)
        guard let again = try? ProxyServer(parsing: written, source: .option("--proxy")), again == proxy else {
            invariantFailed("proxy-url", "the proxy written back as a URL parses to another proxy")
        }
        guard let credentials = proxy.credentials else { return }
        var other = proxy
        if credentials.password != nil {
            other.credentials = ProxyCredentials(user: credentials.user, password: credentials.password! + "x")
        } else {
            other.credentials = ProxyCredentials(user: credentials.user + "x", password: nil)
        }
        if other.description != proxy.description {
            invariantFailed("proxy-url", "the printed proxy depends on a secret")
        }
    }

    /// `scheme://user:password@host:port` with every byte of the credentials outside RFC 3986's
    /// unreserved set percent-encoded.
    static func url(of proxy: ProxyServer) -> String {
        var userInfo = ""
        if let credentials = proxy.credentials {
            userInfo = PercentEncoding.encoded(credentials.user, keeping: PercentEncoding.isUnreserved)
            if let password = credentials.password {
                userInfo += ":" + PercentEncoding.encoded(password, keeping: PercentEncoding.isUnreserved)
            }
            userInfo += "@"
        }
        return "\(proxy.scheme.rawValue)://\(userInfo)\(proxy.hostForURL):\(proxy.port)"
    }

    /// The user name made `factor` times as long (a long token), the rest kept.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        guard let at = seed.lastIndex(of: UInt8(ascii: "@")), let slashes = seed.firstRange(of: Array("://".utf8)) else {
            return Array(repeating: UInt8(ascii: "a"), count: factor) + seed
        }
        let user = Array(seed[slashes.upperBound..<at])
        return Array(seed[..<slashes.upperBound]) + Array(repeating: user, count: factor).flatMap { $0 } + Array(seed[at...])
    }
}
