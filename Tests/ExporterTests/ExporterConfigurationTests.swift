import Exporter
import Testing

/// blackbox_exporter's config format, read as blackbox reads it: http modules in full, the
/// other probers loaded and listed, every unknown or unsupported key an error at its place.
@Suite struct ExporterConfigurationTests {
    static let sample = """
        modules:
          http_2xx:
            prober: http
            timeout: 1m30s
            http:
              valid_status_codes: [200, 301]
              method: post
              body: '{"q": 1}'
              headers:
                Accept: text/plain
                X-Probe: "1"
              no_follow_redirects: true
              fail_if_not_ssl: true
              fail_if_body_not_matches_regexp: ["ok"]
              fail_if_header_matches:
                - header: Server
                  regexp: "nginx/1\\\\.1"
                  allow_missing: true
              proxy_url: http://proxy.internal:3128
              no_proxy: .internal
              proxy_connect_header:
                X-Tenant: [blue]
              tls_config:
                insecure_skip_verify: false
                ca_file: /etc/ssl/ca.pem
                server_name: api.internal
              preferred_ip_protocol: ip4
              stagebuild:
                validate_domain_name: false
                apple_clients: [afnetworking3]
          ping:
            prober: icmp
            icmp:
              ttl: 5
        """

    @Test func readsEveryHTTPKeyAsBlackboxDoes() throws {
        let configuration = try ExporterConfiguration(parsing: Self.sample, file: "blackbox.yml")
        #expect(configuration.modules.map(\.name) == ["http_2xx", "ping"])
        let module = try #require(configuration.module(named: "http_2xx"))
        #expect(module.timeout == 90)
        let http = module.http
        #expect(http.validStatusCodes == [200, 301])
        #expect(http.method == "POST" && http.body == "{\"q\": 1}")
        #expect(http.headers.map(\.name) == ["Accept", "X-Probe"] && http.headers.map(\.value) == ["text/plain", "1"])
        #expect(!http.followsRedirects && http.failIfNotSSL && !http.failIfSSL)
        #expect(http.failIfBodyNotMatches == ["ok"])
        #expect(http.failIfHeaderMatches.first?.header == "Server" && http.failIfHeaderMatches.first?.allowMissing == true)
        #expect(http.proxyURL == "http://proxy.internal:3128" && http.noProxy == ".internal")
        #expect(http.proxyConnectHeaders.map(\.value) == ["blue"])
        #expect(http.caFile == "/etc/ssl/ca.pem" && !http.insecureSkipVerify && http.serverName == "api.internal")
        #expect(http.preferredIPProtocol == "ip4")
        #expect(!http.validatesDomainName && http.appleClients == ["afnetworking3"])
        #expect(try #require(configuration.module(named: "ping")).isSupported == false)
    }

    static func error(_ text: String) -> String? {
        do {
            _ = try ExporterConfiguration(parsing: text, file: "b.yml")
            return nil
        } catch {
            return error.description
        }
    }

    /// blackbox 0.23's own spelling, prometheus/common's `follow_redirects`, and the older
    /// `no_follow_redirects`, which wins when both are given.
    @Test(arguments: [
        ("follow_redirects: false", false), ("follow_redirects: true", true), ("no_follow_redirects: true", false),
        ("follow_redirects: true\n      no_follow_redirects: true", false), ("method: GET", true),
    ])
    func bothRedirectSpellingsAreRead(_ line: String, _ follows: Bool) throws {
        let text = "modules:\n  m:\n    prober: http\n    http:\n      \(line)\n"
        let module = try #require(try ExporterConfiguration(parsing: text, file: "b.yml").module(named: "m"))
        #expect(module.http.followsRedirects == follows)
    }

    /// prometheus/common's credentials: basic_auth, authorization (Bearer by default) and the
    /// older bearer_token(_file), at most one, each secret inline or in a file, not both.
    @Test func targetCredentialsAreReadAsPrometheusCommonReadsThem() throws {
        func credential(_ lines: String) throws -> HTTPModuleSettings.TargetCredential? {
            let text = "modules:\n  m:\n    prober: http\n    http:\n" + lines
            return try #require(try ExporterConfiguration(parsing: text, file: "b.yml").module(named: "m")).http.credential
        }
        #expect(
            try credential("      basic_auth: {username: u, password_file: /run/p}\n")
                == .basic(username: .inline("u"), password: .file("/run/p")))
        #expect(try credential("      authorization: {credentials: t}\n") == .scheme(type: "Bearer", credentials: .inline("t")))
        #expect(
            try credential("      authorization: {type: Token, credentials_file: /run/t}\n")
                == .scheme(type: "Token", credentials: .file("/run/t")))
        #expect(try credential("      bearer_token_file: /run/t\n") == .scheme(type: "Bearer", credentials: .file("/run/t")))
        #expect(try credential("      method: GET\n") == nil)
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      bearer_token: a\n      basic_auth: {username: u}\n")?
                .hasPrefix("b.yml:6:19: at most one of basic_auth, authorization") == true)
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      basic_auth: {password: a, password_file: b}\n")?
                .contains("at most one of password and password_file") == true)
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      authorization: {type: basic, credentials: a}\n")?
                .contains("use basic_auth") == true)
    }

    @Test func anUnknownKeyIsAnErrorAtItsPlace() {
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      method: GET\n      metod: GET\n")?.hasPrefix(
                "b.yml:6:7: unknown key 'metod' in module m http") == true)
    }

    /// A module with a key the exporter cannot act on loads, is not run, and says why; the file
    /// loads with it (as blackbox's newer example file holds a CEL module); an oauth2 module runs.
    @Test func aModuleWithAKeyTheProbeCannotActOnLoadsAndIsNotRun() throws {
        let configuration = try ExporterConfiguration(
            parsing: """
                modules:
                  token:
                    prober: http
                    http:
                      oauth2: {client_id: a, client_secret: b, token_url: "https://auth.internal/token"}
                  cel:
                    prober: http
                    http:
                      fail_if_body_json_not_matches_cel: "body.ok == true"
                  plain:
                    prober: http
                  ping:
                    prober: icmp

                """, file: "b.yml")
        #expect(try #require(configuration.module(named: "token")).isSupported)
        #expect(try #require(configuration.module(named: "cel")).notRunReason?.contains("no CEL interpreter") == true)
        #expect(try #require(configuration.module(named: "plain")).isSupported)
        #expect(try #require(configuration.module(named: "ping")).notRunReason == "the icmp prober is not run by this exporter")
    }

    /// `oauth2` as prometheus/common reads it: the client-credentials grant's fields, its own
    /// TLS and proxy, one secret, one credential kind per module.
    @Test func readsOAuth2() throws {
        let configuration = try ExporterConfiguration(
            parsing: """
                modules:
                  token:
                    prober: http
                    http:
                      oauth2:
                        client_id: "probe id"
                        client_secret_file: /run/secret
                        scopes: [read, "write all"]
                        token_url: https://auth.internal/token
                        endpoint_params: {audience: "https://api", resource: r}
                        tls_config: {ca_file: /etc/ca.pem, cert_file: c.pem, key_file: k.pem}
                        proxy_url: http://proxy:3128

                """, file: "o.yml")
        let module = try #require(configuration.module(named: "token"))
        guard case .oauth2(let oauth2)? = module.http.credential else {
            Issue.record("\(String(describing: module.http.credential))")
            return
        }
        #expect(oauth2.clientID == "probe id" && oauth2.clientSecret == .file("/run/secret"))
        #expect(
            oauth2.caFile == "/etc/ca.pem" && oauth2.clientKeyFile == "k.pem" && oauth2.proxyURL == "http://proxy:3128")
        for (text, error) in [
            ("oauth2: {token_url: u}", "o.yml:5:15: oauth2 needs client_id"),
            (
                "oauth2: {client_id: a, client_secret: b, client_secret_file: f, token_url: u}",
                "at most one of client_secret and client_secret_file"
            ),
            ("oauth2: {client_id: a, token_url: u, tls_config: {cert_file: c}}", "cert_file and key_file are given together"),
            (
                "oauth2: {client_id: a, token_url: u}\n      bearer_token: t",
                "at most one of basic_auth, authorization, bearer_token, bearer_token_file and oauth2"
            ),
            ("oauth2: {client_id: a, token_url: u, audience: x}", "unknown key 'audience'"),
        ] {
            #expect {
                try ExporterConfiguration(parsing: "modules:\n  m:\n    prober: http\n    http:\n      \(text)\n", file: "o.yml")
            } throws: { thrown in
                "\(thrown)".contains(error)
            }
        }
    }

    /// What each probe would refuse is refused when the config loads, at its place and in the
    /// module's words, never a secret's value.
    @Test(arguments: [
        ("fail_if_body_matches_regexp: ['(unclosed']", "c.yml:5:37: fail_if_body_matches_regexp: "),
        ("fail_if_header_matches: [{header: X, regexp: 'a['}]", "c.yml:5:52: regexp: "),
        ("headers: {'Bad Name': x}", "c.yml:5:17: headers: 'Bad Name' is no field name"),
        ("proxy_url: 'http://u:p@ss@proxy:3128'", "c.yml:5:18: invalid proxy"),
        ("stagebuild: {pinned_public_keys: [sha256//nope]}", "c.yml:5:41: pinned_public_keys: "),
        ("stagebuild: {apple_clients: [netscape]}", "c.yml:5:36: apple_clients are urlsession"),
        ("{proxy_url: 'http://p:1', stagebuild: {pac_url: 'http://w/p.pac'}}", "c.yml:5:55: pac_url chooses each probe's proxy"),
        ("stagebuild: {pac_url: ''}", "c.yml:5:29: pac_url is a URL or a path"),
        ("{compression: gzip, headers: {Accept-Encoding: br}}", "c.yml:5:21: compression gzip is not among the Accept-Encoding"),
    ])
    func whatAProbeWouldRefuseIsRefusedAtItsPlace(text: String, error: String) {
        let thrown = Self.error("modules:\n  m:\n    prober: http\n    http:\n      \(text)\n").map {
            $0.replacingOccurrences(of: "b.yml", with: "c.yml")
        }
        #expect(thrown?.hasPrefix(error) == true, "\(thrown ?? "loaded")")
        #expect(thrown?.contains("p@ss") != true)
    }

    /// `http_headers` (prometheus/common): values and secrets sent as they are, files read for
    /// each probe, the fields the client sets refused.
    @Test func readsHTTPHeaders() throws {
        let configuration = try ExporterConfiguration(
            parsing: """
                modules:
                  m:
                    prober: http
                    http:
                      headers: {X-A: one}
                      http_headers:
                        X-B: {values: [two, three], secrets: [four]}
                        X-C: {files: [/run/c]}

                """, file: "h.yml")
        let http = try #require(configuration.module(named: "m")).http
        #expect(http.headers.map { "\($0.name)=\($0.value)" } == ["X-A=one", "X-B=two", "X-B=three"])
        #expect(http.secretHeaders.map { "\($0.name)=\($0.value)" } == ["X-B=four"])
        #expect(http.headerFiles.map { "\($0.name)=\($0.path)" } == ["X-C=/run/c"])
        #expect {
            try ExporterConfiguration(
                parsing: "modules:\n  m:\n    prober: http\n    http:\n      http_headers: {User-Agent: {values: [x]}}\n",
                file: "h.yml")
        } throws: { error in
            "\(error)".contains("h.yml:5:22: http_headers may not set User-Agent")
        }
    }

    /// The keys of blackbox's http prober the exporter acts on, read as blackbox reads them.
    @Test func readsTheTransportAndResponseKeys() throws {
        let configuration = try ExporterConfiguration(
            parsing: """
                modules:
                  m:
                    prober: http
                    http:
                      valid_http_versions: ["HTTP/1.1", "HTTP/2.0"]
                      accept_any_response: true
                      body_file: /etc/probe/body.json
                      enable_http2: false
                      compression: gzip
                      preferred_ip_protocol: ip4
                      ip_protocol_fallback: false
                      skip_resolve_phase_with_proxy: true
                      follow_redirects: false
                      tls_config:
                        min_version: TLS12
                        max_version: TLS13
                        cert_file: /etc/probe/client.pem
                        key_file: /etc/probe/client.key

                """, file: "b.yml")
        let http = try #require(configuration.module(named: "m")).http
        #expect(http.validHTTPVersions == ["HTTP/1.1", "HTTP/2.0"])
        #expect(http.acceptsAnyResponse && !http.enablesHTTP2 && !http.ipProtocolFallback && !http.followsRedirects)
        #expect(http.bodyFile == "/etc/probe/body.json" && http.compression == "gzip")
        #expect(http.minimumTLSVersion == .tls1_2 && http.maximumTLSVersion == .tls1_3)
        #expect(http.clientCertificateFile == "/etc/probe/client.pem" && http.clientKeyFile == "/etc/probe/client.key")
        #expect(http.notActedOn.isEmpty)
        let wrong: [(String, String)] = [
            ("tls_config: {min_version: TLS14}", "min_version is TLS10, TLS11, TLS12 or TLS13, not 'TLS14'"),
            ("tls_config: {min_version: TLS13, max_version: TLS12}", "max_version is lower than min_version"),
            ("tls_config: {cert_file: /c.pem}", "cert_file and key_file are given together"),
            ("compression: lzma", "compression is gzip, br, deflate or identity, not 'lzma'"),
            ("valid_http_versions: [1.1]", "valid_http_versions holds versions such as HTTP/1.1, not '1.1'"),
            ("{body: x, body_file: /b}", "at most one of body and body_file may be set"),
        ]
        for (http, message) in wrong {
            let text =
                http.hasPrefix("{")
                ? "modules:\n  m:\n    prober: http\n    http: \(http)\n"
                : "modules:\n  m:\n    prober: http\n    http:\n      \(http)\n"
            #expect(Self.error(text)?.contains(message) == true, "\(http): \(Self.error(text) ?? "loaded")")
        }
    }

    @Test func valuesOfTheWrongKindAreErrors() {
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    timeout: soon\n")
                == "b.yml:4:14: timeout must be a duration such as 5s or 500ms, not 'soon'")
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      fail_if_ssl: yes please\n")?.contains(
                "expected true or false") == true)
        #expect(Self.error("modules:\n  m:\n    prober: smtp\n")?.hasPrefix("b.yml:3:13: unknown prober 'smtp'") == true)
        #expect(Self.error("modules:\n  m:\n    timeout: 5s\n")?.contains("needs a prober") == true)
        #expect(
            Self.error("modules:\n  m:\n    prober: http\n    http:\n      valid_status_codes: [2xx]\n")?.contains(
                "status codes 100-599") == true)
    }

    @Test func yamlThatDoesNotParseIsAnErrorWithItsPlace() {
        #expect(Self.error("modules:\n  m:\n   prober: http\n  x\n")?.hasPrefix("b.yml:") == true)
    }

    /// An empty or comment-only file (a deploy cut short) is refused, as blackbox refuses it,
    /// so a reload keeps the modules; `modules: {}` is an empty config written on purpose.
    @Test func anEmptyFileIsRefusedAndNoModulesIsNot() throws {
        for text in ["", "# just a comment\n", "\n\n"] {
            #expect(Self.error(text) == "b.yml:1:1: the file holds no YAML document; blackbox's config has modules:")
        }
        #expect(try ExporterConfiguration(parsing: "modules: {}\n", file: "b.yml").modules.isEmpty)
    }
}
