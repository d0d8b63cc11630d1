import ProbeKit
import Testing

/// Proxy text parsed as libcurl 7.88.1's `parse_proxy` parses `CURLOPT_PROXY` and the proxy
/// variables; each accepted and rejected form was checked against `curl -x` 7.88.1.
@Suite struct ProxyServerTests {
    private func parse(_ text: String) throws -> ProxyServer {
        try ProxyServer(parsing: text, source: .option("--proxy"))
    }

    /// Text, and the proxy it means.
    struct Accepted: CustomTestStringConvertible, Sendable {
        let text: String
        let scheme: ProxyServer.Scheme
        let host: String
        let port: Int
        init(_ text: String, _ scheme: ProxyServer.Scheme, _ host: String, _ port: Int) {
            self.text = text
            self.scheme = scheme
            self.host = host
            self.port = port
        }
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(arguments: [
        Accepted("proxy.internal:3128", .http, "proxy.internal", 3128),
        Accepted("proxy.internal", .http, "proxy.internal", 1080),
        Accepted("http://proxy.internal", .http, "proxy.internal", 1080),
        Accepted("http://proxy.internal:", .http, "proxy.internal", 1080),
        Accepted("https://proxy.internal", .https, "proxy.internal", 443),
        Accepted("HTTPS://Proxy.Internal:8443", .https, "Proxy.Internal", 8443),
        Accepted("http://127.0.0.1:007", .http, "127.0.0.1", 7),
        Accepted("http://127.0.0.1:0", .http, "127.0.0.1", 0),
        Accepted("http://127.0.0.1:65535", .http, "127.0.0.1", 65_535),
        Accepted("http:/proxy.internal:3128", .http, "proxy.internal", 3128),
        Accepted("http:///proxy.internal:3128", .http, "proxy.internal", 3128),
        Accepted("http://[::1]:3128", .http, "::1", 3128),
        Accepted("https://[::1]", .https, "::1", 443),
        Accepted("http://[::1]:", .http, "::1", 1080),
        Accepted("http://[fe80::1%25eth0]:3128", .http, "fe80::1%eth0", 3128),
        Accepted("http://[fe80::1%eth0]:3128", .http, "fe80::1%eth0", 3128),
        Accepted("http://%31%32%37.0.0.1:7", .http, "127.0.0.1", 7),
        Accepted("http://a_b.internal:7", .http, "a_b.internal", 7),
        Accepted("www.ftp.internal:7", .http, "www.ftp.internal", 7),
        Accepted("127.0.0.1:7/", .http, "127.0.0.1", 7),
    ])
    func acceptsWhatCurlAccepts(_ item: Accepted) throws {
        let server = try parse(item.text)
        #expect(server.scheme == item.scheme)
        #expect(server.host == item.host)
        #expect(server.port == item.port)
        #expect(server.credentials == nil)
    }

    @Test(arguments: [
        " http://127.0.0.1:7", "127.0.0.1:7 ", "http://a b:7", "http://:80", "http://", "//127.0.0.1:7",
        "http:127.0.0.1:7", "http:////127.0.0.1:7", "http://127.0.0.1:65536", "http://127.0.0.1:+7",
        "http://127.0.0.1:7x", "http://host:7:8", "http://[::1", "http://[::1]x:7", "http://[zz::1]:7",
        "h_t://127.0.0.1:7", "http://u@v@127.0.0.1:7", "http://ho$t:7", "http://a%20b:7",
        "http://u%00:p@proxy:7", "h_t:", "hostx:", "h_t:/x", "127.0.0.1:/",
        // A host outside ASCII, which curl fails with CURLE 3 at the call (the `proxy-url` fuzz
        // target's U+064B alone was accepted, then reported as a failure at the proxy).
        "\u{64B}", "b\u{FC}cher.example:3128", "http://b%C3%BCcher.example",
    ])
    func rejectsWhatCurlRejects(_ text: String) {
        let error = #expect(throws: ProxyConfigurationError.self) { try parse(text) }
        guard case .invalidProxy(_, let source, _) = error else {
            Issue.record("expected invalidProxy, got \(String(describing: error))")
            return
        }
        #expect(source == .option("--proxy"))
    }

    @Test(arguments: [
        ("socks5://127.0.0.1", "socks5"), ("socks5h://u@127.0.0.1:7", "socks5h"), ("socks4://h", "socks4"),
        ("socks4a://h", "socks4a"), ("socks://h", "socks"), ("ftp://127.0.0.1:8", "ftp"), ("ftp.internal:7", "ftp"),
        ("FTP.internal:7", "ftp"), ("imap.internal:7", "imap"), ("dict.x", "dict"), ("ldap.x", "ldap"),
        ("smtp.x", "smtp"), ("pop3.x", "pop3"), ("gopher://x", "gopher"), ("127.0.0.1:/x", "127.0.0.1"),
        ("hostx:/x", "hostx"), ("1ab://127.0.0.1:7", "1ab"), ("x-y://127.0.0.1", "x-y"),
    ])
    func refusesSchemesOtherThanHTTPAndHTTPS(text: String, scheme: String) {
        let error = #expect(throws: ProxyConfigurationError.self) { try parse(text) }
        guard case .unsupportedProxyScheme(let found, _, _) = error else {
            Issue.record("expected unsupportedProxyScheme, got \(String(describing: error))")
            return
        }
        #expect(found == scheme)
    }

    @Test func explainsSOCKSAndGuessedSchemes() {
        let socks = ProxyConfigurationError.unsupportedProxyScheme(
            scheme: "socks5", proxy: "socks5://h", source: .environment("all_proxy"))
        #expect(socks.description.contains("(from all_proxy)"))
        #expect(socks.description.contains("curl would use SOCKS here"))
        let guessed = ProxyConfigurationError.unsupportedProxyScheme(
            scheme: "ftp", proxy: "ftp.internal:7", source: .option("--proxy"))
        #expect(guessed.description.contains("write http://ftp.internal:7"))
    }

    @Test func decodesCredentials() throws {
        let server = try parse("http://u%3Ax:p%40ss%2Fw%C3%B6rd@proxy.internal:3128")
        #expect(server.credentials == ProxyCredentials(user: "u:x", password: "p@ss/wörd"))

        #expect(try parse("http://user:p:q@h:1").credentials == ProxyCredentials(user: "user", password: "p:q"))
        #expect(try parse("http://user@h:1").credentials == ProxyCredentials(user: "user", password: nil))
        #expect(try parse("http://user:@h:1").credentials == ProxyCredentials(user: "user", password: ""))
        #expect(try parse("http://:secret@h:1").credentials == ProxyCredentials(user: "", password: "secret"))
        // curl 7.88.1 sends "Proxy-Authorization: Basic Og==" for empty user info.
        #expect(try parse("http://@h:1").credentials == ProxyCredentials(user: "", password: nil))
        #expect(try parse("user:pw@h:1").credentials == ProxyCredentials(user: "user", password: "pw"))
        #expect(try parse("http://us%zzer:pw@h:1").credentials?.user == "us%zzer", "a bad escape stays as written")
    }

    @Test func anEncodedColonInTheUserNameStaysEncoded() throws {
        let server = try parse("http://alice%3Apw-like@proxy.internal:3128")
        #expect(server.credentials?.user == "alice:pw-like")
        // A user name alone is a token: hidden, whatever it decodes to.
        #expect(server.description == "http://***@proxy.internal:3128")
        let both = try parse("http://a%40b:secret@proxy.internal:3128")
        #expect(both.description == "http://a%40b:***@proxy.internal:3128")
    }

    /// curl ignores a proxy URL's path, query and fragment; with a proxy they only arise from
    /// an unencoded `/`, `?` or `#` in the password, so they are refused, naming the fix.
    @Test(arguments: [
        "http://proxy.internal:3128/some/path?q#f", "proxy.internal:3128/path", "127.0.0.1:7//x", "http://h:1?q", "http://h:1#f",
    ])
    func refusesAPathQueryOrFragment(text: String) {
        let error = #expect(throws: ProxyConfigurationError.self) { try parse(text) }
        #expect(error?.description.contains("a proxy URL has no path, query or fragment") == true, "\(String(describing: error))")
    }

    @Test func describesWithoutThePassword() throws {
        let server = try parse("http://probe:s3cr%65t@proxy.internal:3128")
        #expect(server.description == "http://probe:***@proxy.internal:3128")
        #expect(server.url == "http://proxy.internal:3128")
        #expect("\(server.credentials.map(String.init(describing:)) ?? "")" == "probe:***")
        #expect(String(reflecting: server.credentials) == "Optional(probe:***)")
        var dumped = ""
        dump(server, to: &dumped)
        #expect(!dumped.contains("s3cret"))
        #expect(try parse("http://probe@h:1").description == "http://***@h:1")
    }

    @Test func seesDelimitersThatACombiningMarkFollows() throws {
        // `?` then U+073F is one Character; the `?` is still an unencoded character of the
        // password (found by the `proxy-url` fuzz target), and `@` then U+064B still ends it.
        #expect(throws: ProxyConfigurationError.self) { try parse("http://u:p?\u{73F}@proxy:3128") }
        let proxy = try parse("http://u:p\u{E9}@proxy:3128")
        #expect(proxy.credentials?.password == "p\u{E9}")
        #expect(proxy.host == "proxy")
    }

    @Test func namesAPercentEncodedAddressAsThePlainOne() throws {
        // `1.%35` decodes to `1.5`, which libcurl's resolver reads as 1.0.0.5, as it reads `1.5`.
        #expect(try parse("h%3A1@1.%35").host == "1.0.0.5")
        #expect(try parse("http://1.5").host == "1.0.0.5")
    }

    @Test func bracketsIPv6InURLs() throws {
        #expect(try parse("http://[::1]:3128").url == "http://[::1]:3128")
        #expect(try parse("http://[fe80::1%25eth0]:3128").url == "http://[fe80::1%25eth0]:3128")
        #expect(try parse("https://u:p@[::1]").description == "https://u:***@[::1]:443")
    }

    @Test func errorsNeverShowThePassword() {
        for text in [
            "http://user:s3cret@proxy:99999", "http://user:s3cret@pro xy:1", "http://user:s3c@ret@proxy:1",
            "socks5://user:s3cret@proxy", "user:s3cret@ftp.proxy:1",
        ] {
            let error = #expect(throws: ProxyConfigurationError.self) { try parse(text) }
            let message = error.map(String.init(describing:)) ?? ""
            #expect(!message.contains("s3c"), "\(message)")
            #expect(message.contains("user:***@"), "\(message)")
        }
    }

    @Test func namesTheProblem() {
        let error = #expect(throws: ProxyConfigurationError.self) {
            try ProxyServer(parsing: "http://proxy:99999", source: .environment("https_proxy"))
        }
        #expect(
            error?.description
                == "invalid proxy \"http://proxy:99999\" (from https_proxy): the port must be a number from 0 to 65535")
    }
}
