import Curl
import Foundation
import ProbeKit
import Testing

/// Which proxy curl would use for a target: `--proxy`, the environment variables by scheme,
/// and the no-proxy list, with curl's precedence.
@Suite struct ProxyConfigurationTests {
    private func route(
        _ target: String, proxy: String? = nil, noProxy: String? = nil, _ environment: [String: String] = [:]
    ) throws -> ProxyRoute {
        let url = try #require(URL(string: target))
        return try ProxyConfiguration(proxy: proxy, noProxy: noProxy, environment: environment).route(for: url)
    }

    private func proxy(_ host: String, _ port: Int, _ scheme: ProxyServer.Scheme = .http) -> ProxyServer {
        ProxyServer(scheme: scheme, host: host, port: port)
    }

    // MARK: - --proxy

    @Test func usesTheProxyOption() throws {
        #expect(
            try route("https://api.test/", proxy: "http://p.test:3128")
                == .proxy(proxy("p.test", 3128), source: .option("--proxy")))
    }

    @Test func proxyOptionBeatsTheEnvironment() throws {
        let environment = ["https_proxy": "http://env.test:1", "all_proxy": "http://all.test:2"]
        #expect(try route("https://api.test/", proxy: "p.test:3", environment).server == proxy("p.test", 3))
    }

    @Test func emptyProxyOptionMeansDirectAndIgnoresTheEnvironment() throws {
        let environment = ["https_proxy": "http://env.test:1", "ALL_PROXY": "http://all.test:2"]
        #expect(try route("https://api.test/", proxy: "", environment) == .direct(.proxyDisabled(source: .option("--proxy"))))
    }

    // MARK: - Environment by scheme

    @Test func httpTargetsReadLowerCaseHTTPProxyOnly() throws {
        #expect(
            try route("http://api.test/", ["http_proxy": "h.test:1"])
                == .proxy(proxy("h.test", 1), source: .environment("http_proxy")))
        #expect(try route("http://api.test/", ["HTTP_PROXY": "h.test:1"]) == .direct(.noProxyConfigured))
        #expect(
            try route("http://api.test/", ["HTTP_PROXY": "h.test:1", "ALL_PROXY": "a.test:2"])
                == .proxy(proxy("a.test", 2), source: .environment("ALL_PROXY")))
    }

    @Test func httpsTargetsReadLowerThenUpperCase() throws {
        let both = ["https_proxy": "lower.test:1", "HTTPS_PROXY": "upper.test:2"]
        #expect(try route("https://api.test/", both) == .proxy(proxy("lower.test", 1), source: .environment("https_proxy")))
        #expect(
            try route("https://api.test/", ["HTTPS_PROXY": "upper.test:2"])
                == .proxy(proxy("upper.test", 2), source: .environment("HTTPS_PROXY")))
    }

    @Test func emptyVariablesCountAsUnset() throws {
        let environment = ["https_proxy": "", "HTTPS_PROXY": "upper.test:2"]
        #expect(try route("https://api.test/", environment).server == proxy("upper.test", 2))
        #expect(try route("https://api.test/", ["https_proxy": "", "all_proxy": ""]) == .direct(.noProxyConfigured))
    }

    @Test func httpsVariablesDoNotServeHTTPTargetsNorTheOtherWayRound() throws {
        #expect(try route("http://api.test/", ["https_proxy": "s.test:1"]) == .direct(.noProxyConfigured))
        #expect(try route("https://api.test/", ["http_proxy": "h.test:1"]) == .direct(.noProxyConfigured))
    }

    @Test func allProxyIsTheFallbackLowerCaseFirst() throws {
        let environment = ["all_proxy": "lower.test:1", "ALL_PROXY": "upper.test:2"]
        #expect(try route("https://api.test/", environment).server == proxy("lower.test", 1))
        #expect(try route("http://api.test/", ["ALL_PROXY": "upper.test:2"]).server == proxy("upper.test", 2))
        #expect(
            try route("https://api.test/", ["HTTPS_PROXY": "s.test:3", "all_proxy": "a.test:1"]).server == proxy("s.test", 3))
    }

    @Test func schemeOfTheTargetIsCaseInsensitive() throws {
        let configuration = ProxyConfiguration(environment: ["https_proxy": "s.test:1"])
        #expect(try configuration.route(scheme: "HTTPS", host: "api.test").server == proxy("s.test", 1))
    }

    @Test func nothingSetMeansDirect() throws {
        #expect(try route("https://api.test/") == .direct(.noProxyConfigured))
        #expect(try route("http://api.test/", ["PATH": "/bin"]) == .direct(.noProxyConfigured))
    }

    // MARK: - No-proxy list

    @Test func noProxyBypassesAnEnvironmentProxyAndSaysWhichEntry() throws {
        let environment = ["https_proxy": "http://u:pw@p.test:3128", "NO_PROXY": "localhost, .internal"]
        let result = try route("https://api.internal/health", environment)
        let bypassed = ProxyServer(
            scheme: .http, host: "p.test", port: 3128, credentials: ProxyCredentials(user: "u", password: "pw"))
        #expect(
            result
                == .direct(
                    .bypassed(
                        NoProxyMatch(
                            entry: ".internal", host: "api.internal", source: .environment("NO_PROXY"), bypassedProxy: bypassed)))
        )
        #expect(result.description == "direct: NO_PROXY entry \".internal\" matches api.internal")
    }

    @Test func noProxyAlsoBypassesTheProxyOptionAsInCurl() throws {
        let result = try route("http://10.1.2.3/", proxy: "p.test:1", ["no_proxy": "10.0.0.0/8"])
        guard case .direct(.bypassed(let match)) = result else {
            Issue.record("expected a bypass, got \(result)")
            return
        }
        #expect(match.entry == "10.0.0.0/8")
        #expect(match.source == .environment("no_proxy"))
        #expect(match.bypassedProxy == proxy("p.test", 1))
    }

    @Test func lowerCaseNoProxyWinsOverUpperCase() throws {
        let environment = ["https_proxy": "p.test:1", "no_proxy": "other.test", "NO_PROXY": "api.test"]
        #expect(try route("https://api.test/", environment).server == proxy("p.test", 1))
        let emptyLower = ["https_proxy": "p.test:1", "no_proxy": "", "NO_PROXY": "api.test"]
        guard case .direct(.bypassed(let match)) = try route("https://api.test/", emptyLower) else {
            Issue.record("an empty no_proxy counts as unset, so NO_PROXY applies")
            return
        }
        #expect(match.source == .environment("NO_PROXY"))
    }

    @Test func noProxyOptionReplacesTheEnvironmentsList() throws {
        let environment = ["https_proxy": "p.test:1", "NO_PROXY": "api.test"]
        #expect(try route("https://api.test/", noProxy: "", environment).server == proxy("p.test", 1))
        #expect(try route("https://api.test/", noProxy: "other.test", environment).server == proxy("p.test", 1))
        let result = try route("https://api.test/", noProxy: "*", environment)
        #expect(result.description == "direct: --noproxy \"*\" matches every host")
    }

    @Test func noProxyMatchWithoutAProxyIsPlainDirect() throws {
        #expect(try route("https://api.test/", ["NO_PROXY": "*"]) == .direct(.noProxyConfigured))
        #expect(
            try route("https://api.test/", proxy: "", ["NO_PROXY": "*"]) == .direct(.proxyDisabled(source: .option("--proxy"))))
    }

    @Test func matchesIPv6TargetsFromURLs() throws {
        let environment = ["http_proxy": "p.test:1", "no_proxy": "::1/128"]
        guard case .direct(.bypassed(let match)) = try route("http://[::1]:8080/", environment) else {
            Issue.record("::1/128 should match [::1]")
            return
        }
        #expect(match.host == "::1")
    }

    // MARK: - Invalid text

    @Test func invalidProxyTextIsAnErrorNamingTheVariable() {
        let error = #expect(throws: ProxyConfigurationError.self) {
            try route("https://api.test/", ["HTTPS_PROXY": "http://user:s3cret@p.test:99999"])
        }
        #expect(
            error?.description
                == "invalid proxy \"http://user:***@p.test:99999\" (from HTTPS_PROXY): the port must be a number from 0 to 65535")
    }

    @Test func unusedInvalidTextIsNotChecked() throws {
        let environment = ["https_proxy": "p.test:1", "HTTPS_PROXY": "socks5://bad", "http_proxy": "http://:1"]
        #expect(try route("https://api.test/", environment).server == proxy("p.test", 1))
        let bypassedInvalid = try route("https://api.test/", ["https_proxy": "p.test:99999", "NO_PROXY": "api.test"])
        #expect(
            bypassedInvalid
                == .direct(.bypassed(NoProxyMatch(entry: "api.test", host: "api.test", source: .environment("NO_PROXY")))))
    }

    // MARK: - Descriptions and libcurl options

    @Test func describesRoutesWithoutPasswords() throws {
        let result = try route("https://api.test/", proxy: "http://probe:s3cret@p.test:3128")
        #expect(result.description == "proxy http://probe:***@p.test:3128 (from --proxy)")
        #expect(try route("https://api.test/").description == "direct: no proxy configured")
        #expect(try route("https://api.test/", proxy: "").description == "direct: --proxy \"\" disables proxies")
        var dumped = ""
        dump(result, to: &dumped)
        #expect(!dumped.contains("s3cret"))
        #expect(!String(reflecting: result).contains("s3cret"))
    }

    @Test func turnsIntoCurlOptionsThatDecideNothingThemselves() throws {
        let viaProxy = try route("https://api.test/", proxy: "https://u%40x:p%3Aw@[::1]:8443")
        #expect(
            viaProxy.curlOptions == [
                .proxy("https://[::1]:8443"), .proxyType(.https), .noProxy(""), .proxyUsername("u@x"),
                .proxyPassword("p:w"),
            ])
        #expect(try route("https://api.test/").curlOptions == [.proxy(""), .noProxy("")])
        #expect(
            try route("https://api.test/", proxy: "p.test:1").curlOptions == [
                .proxy("http://p.test:1"), .proxyType(.http), .noProxy(""),
            ])
    }
}

/// Notes about proxy choice a user would not expect, and proxy text that cannot mean what it says.
@Suite struct ProxyChoiceNoteTests {
    @Test func upperCaseHTTPProxyIsIgnoredForHTTPTargetsWithANote() throws {
        let configuration = ProxyConfiguration(environment: ["HTTP_PROXY": "http://u:s3cret@proxy.test:3128"])
        #expect(try configuration.route(scheme: "http", host: "api.test").server == nil)
        let notes = configuration.notes(scheme: "http")
        #expect(notes.count == 1)
        #expect(notes.first?.contains("HTTP_PROXY (http://u:***@proxy.test:3128) is ignored on purpose") == true)
        #expect(notes.first?.contains("s3cret") == false)
        #expect(configuration.notes(scheme: "https").isEmpty)
        #expect(ProxyConfiguration(environment: ["HTTP_PROXY": "p:1", "http_proxy": "p:2"]).notes(scheme: "http").isEmpty)
        #expect(ProxyConfiguration(proxy: "p:1", environment: ["HTTP_PROXY": "p:1"]).notes(scheme: "http").isEmpty)
    }

    @Test(arguments: ["http://::1:3128", "::1:3128", "http://fe80::1:8080"])
    func anUnbracketedIPv6ProxyGetsTheBracketsHint(text: String) {
        let error = #expect(throws: ProxyConfigurationError.self) { try ProxyServer(parsing: text, source: .option("--proxy")) }
        #expect(error?.description.contains("an IPv6 address goes in brackets, e.g. http://[::1]:3128") == true)
    }
}
