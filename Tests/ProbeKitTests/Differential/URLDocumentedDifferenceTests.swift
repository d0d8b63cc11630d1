import Curl
import Foundation
import ProbeKit
import Testing

/// The differences from libcurl 7.88.1 that stagebuild makes on purpose, one test each
/// (`Tests/Oracle/README.md` lists them), with libcurl's own answer beside the probe's.
@Suite struct URLDocumentedDifferenceTests {
    private func proxy(_ text: String) throws -> ProxyServer {
        try ProxyServer(parsing: text, source: .option("--proxy"))
    }

    @Test func proxyUserInfoThatDecodesToAControlCharacterIsRefused() {
        // libcurl: curl_url_get(CURLU_URLDECODE) fails, parse_proxy returns CURLE_OK without
        // a proxy host, and the transfer goes direct.
        #expect(URLParts.parse("http://u%00:p@proxy.test:7", reading: .proxy) == .failure(.undecodable))
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://u%00:p@proxy.test:7") }
    }

    @Test func proxyTextWithAPathQueryOrFragmentIsRefused() throws {
        let parts = try URLParts.parse("http://proxy.test:3128/x?q#f", reading: .proxy).get()
        #expect(parts.host == "proxy.test" && parts.path == "/x" && parts.query == "q" && parts.fragment == "f")
        for text in ["http://proxy.test:3128/x?q#f", "http://proxy.test:3128/..", "http://proxy.test:3128#", "proxy.test?"] {
            #expect(throws: ProxyConfigurationError.self, "\(text)") { try proxy(text) }
        }
    }

    @Test func aProxyHostThatHoldsAPercentOnceDecodedIsRefused() throws {
        // libcurl decodes a proxy's host twice: once when parsing, once in parse_proxy.
        #expect(try URLParts.parse("http://a%2541.test:3128", reading: .proxy).get().host == "aA.test")
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://a%2541.test:3128") }
    }

    @Test func proxyUserInfoOrHostThatIsNotUTF8IsRefused() throws {
        #expect(try URLParts.parse("http://u%C3:p@proxy.test:7", reading: .proxy).get().user == "u\u{FFFD}")
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://u%C3:p@proxy.test:7") }
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://b%C3.example:7") }
    }

    @Test func anIPv6ZoneIDOutsideRFC6874IsRefused() throws {
        #expect(try URLParts.parse("http://[fe80::1%25e;h]:7", reading: .proxy).get().zoneID == "e;h")
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://[fe80::1%25e;h]:7") }
        #expect(throws: ProbeInputError.self) { try ProbeRequest(parsing: "http://[fe80::1%25e;h]:7/") }
        // The probe's targets take RFC 6874's "%25" only; libcurl also reads "%eth0".
        #expect(try URLParts.parse("http://[fe80::1%eth0]/", reading: .transfer).get().zoneID == "eth0")
        #expect(throws: ProbeInputError.self) { try ProbeRequest(parsing: "http://[fe80::1%eth0]/") }
        #expect(try ProbeRequest(parsing: "http://[fe80::1%25eth0]/").host == "fe80::1%eth0")
    }

    @Test func aTargetNeedsItsSchemeAndTwoSlashes() throws {
        #expect(try URLParts.parse("api.test/x", reading: .transfer).get().scheme == "http")
        #expect(try URLParts.parse("http:/api.test/x", reading: .transfer).get().host == "api.test")
        #expect(try URLParts.parse("http:///api.test/x", reading: .transfer).get().host == "api.test")
        for text in ["api.test/x", "http:/api.test/x", "http:///api.test/x"] {
            #expect(throws: ProbeInputError.self, "\(text)") { try ProbeRequest(parsing: text) }
        }
    }

    @Test func aTargetIsRFC3986Text() throws {
        // libcurl sends these as written (and percent-encodes a raw non-ASCII path itself); the
        // probe encodes what may not appear raw, as blackbox's Go url.Parse does, ...
        for (text, sent) in [
            ("http://api.test/a|b", "http://api.test/a%7Cb"), ("http://api.test/a%zz", "http://api.test/a%25zz"),
            ("http://api.test/\u{FC}", "http://api.test/%C3%BC"),
        ] {
            #expect(throws: Never.self, "\(text)") { try URLParts.parse(text, reading: .transfer).get() }
            #expect(try ProbeRequest(parsing: text).target == sent)
        }
        // ... and refuses what is no URL even so.
        for text in ["http://api.test/#a#b", "http://u[x:p@api.test/"] {
            #expect(throws: Never.self, "\(text)") { try URLParts.parse(text, reading: .transfer).get() }
            #expect(throws: ProbeInputError.self, "\(text)") { try ProbeRequest(parsing: text) }
        }
    }

    @Test func aTargetWithCharactersLibcurlRefusesRawIsSentEncoded() throws {
        // libcurl 7.88.1's URL API refuses a raw space or DEL; the probe sends them encoded.
        for (text, sent) in [
            ("http://api.test/a b", "http://api.test/a%20b"), ("http://api.test/?\u{7F}", "http://api.test/?%7F"),
        ] {
            #expect(throws: URLValidation.Problem.self, "\(text)") { try URLParts.parse(text, reading: .transfer).get() }
            #expect(try URLParts.parse(sent, reading: .transfer).get().host == "api.test")
            #expect(try ProbeRequest(parsing: text).target == sent)
        }
    }

    @Test func aTargetHostThatDecodesOutsideASCIIIsAskedForInItsASCIIForm() throws {
        #expect(try URLParts.parse("http://b%C3%BCcher.example/", reading: .transfer).get().host == "b\u{FC}cher.example")
        #expect {
            try ProbeRequest(parsing: "http://b%C3%BCcher.example/")
        } throws: { error in
            "\(error)".contains("write it in its ASCII (punycode) form")
        }
    }

    @Test func aProxyHostThatDecodesToAnAddressIsNamedAsThatAddress() throws {
        // libcurl's URL API names addresses before it decodes (`1.%35` stays `1.5`); its
        // resolver then reads `1.5` as 1.0.0.5, the address `http://1.5` is named as.
        #expect(try URLParts.parse("2130706%33:80", reading: .proxy).get().host == "21307063")
        #expect(try URLParts.parse("http://21307063", reading: .proxy).get().host == "1.69.30.183")
        #expect(try proxy("2130706%33:80").host == "1.69.30.183")
        #expect(try proxy("1.%35").host == "1.0.0.5")
    }

    @Test func aProxyHostThatDecodesToDELIsRefused() throws {
        #expect(try URLParts.parse("%7ftp.8", reading: .proxy).get().host == "\u{7F}tp.8")
        #expect(throws: ProxyConfigurationError.self) { try proxy("%7ftp.8") }
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://a%7F.test:3128") }
    }

    @Test func aProxyHostOutsideASCIIIsAskedForInItsASCIIForm() throws {
        // libcurl's URL API takes the name; the call then fails with CURLE 3 when libidn2
        // cannot convert it (`curl -x $'\u064b' …`), and converts it otherwise.
        #expect(try URLParts.parse("http://b%C3%BCcher.example:3128", reading: .proxy).get().host == "b\u{FC}cher.example")
        for text in ["http://b%C3%BCcher.example:3128", "b\u{FC}cher.example", "\u{64B}"] {
            #expect(throws: ProxyConfigurationError.self, "\(text)") { try proxy(text) }
        }
        #expect {
            try proxy("b\u{FC}cher.example")
        } throws: { error in
            "\(error)".contains("write it in its ASCII (punycode) form")
        }
    }

    /// curl 7.88.1 strips an IPv6 host's brackets before `Curl_check_noproxy`, which then
    /// compares the address as a name: `::1` matches `[::1]`, `::1/128` and `0:0::1` do not
    /// (checked with `curl --noproxy LIST -x http://127.0.0.1:P http://[::1]:P2/`). The probe
    /// matches addresses, as curl does since pull request #19828.
    @Test(arguments: [("::1", "direct", "direct"), ("::1/128", "direct", "proxy"), ("0:0::1", "direct", "proxy")])
    func anIPv6HostIsMatchedAsAnAddress(list: String, probe: String, curl: String) throws {
        let request = try ProbeRequest(parsing: "http://[::1]:40000/")
        let settings = ProbeSettings(proxy: ProxyConfiguration(proxy: "http://127.0.0.1:10000", noProxy: list))
        #expect(try settings.route(for: request).server == nil ? probe == "direct" : probe == "proxy")
        #expect(NoProxyDifferentialTests.isIPv6HostComparedAsName(host: request.host, list: list, curl: curl))
    }
}

/// Disagreements the differential tests found, reduced, with the answer of libcurl 7.88.1 (and
/// of the curl command for routes); each was a bug, fixed.
@Suite struct URLDifferentialFindingsTests {
    private func proxy(_ text: String) throws -> ProxyServer {
        try ProxyServer(parsing: text, source: .option("--proxy"))
    }

    /// curl normalizes an IPv4 address in any form before it matches the no-proxy list:
    /// `curl --noproxy 127.0.0.0/8 -x http://127.0.0.1:P http://0x7f.1:P2/` goes direct. The
    /// probe used Foundation's host ("0x7f.1", a name) and went through the proxy.
    @Test(arguments: [
        ("http://0x7f.1:40000/", "127.0.0.0/8"), ("http://127.1:40000/", "127.0.0.1"),
        ("http://2130706433:40000/", "127.0.0.0/8"), ("http://012.1.2.3:40000/", "10.0.0.0/8"),
        ("http://%61pi.probe.test:40000/", "api.probe.test"),
    ])
    func theRouteIsChosenForTheHostLibcurlConnectsTo(url: String, list: String) throws {
        let request = try ProbeRequest(parsing: url)
        #expect(request.host == (try URLParts.parse(url, reading: .transfer).get().host))
        let configuration = ProxyConfiguration(proxy: "http://127.0.0.1:10000", noProxy: list)
        #expect(try ProbeSettings(proxy: configuration).route(for: request).server == nil)
        #expect(try configuration.route(for: #require(URL(string: url))).server == nil)
    }

    @Test func hostsLibcurlReadsAsIPv4AddressesAreNotPlain() throws {
        for text in ["http://0x7f.1/", "http://0X7F.0.0.1/", "http://2130706433/", "http://127.1/", "http://012.1.2.3/"] {
            #expect(PlainURL(text) == nil, "\(text)")
        }
        #expect(PlainURL("http://127.0.0.1/")?.host == "127.0.0.1")
        #expect(PlainURL("http://1password.test/")?.host == "1password.test")
    }

    @Test func aProxyHostIsNamedAsLibcurlNamesIt() throws {
        #expect(try proxy("0x7f.1:3128").host == "127.0.0.1")
        #expect(try proxy("http://127.00.1:3128").host == "127.0.0.1")
        #expect(try proxy("http://[0:0::1]:3128").host == "::1")
    }

    @Test func anIPv6ZoneIDHasAtMost15Characters() throws {
        #expect(URLParts.parse("http://[fe80::1%25abcdefghijklmnop]:7", reading: .proxy) == .failure(.badIPv6))
        #expect(throws: ProxyConfigurationError.self) { try proxy("http://[fe80::1%25abcdefghijklmnop]:7") }
        #expect(try proxy("http://[fe80::1%25abcdefghijklmno]:7").host == "fe80::1%abcdefghijklmno")
    }

    @Test func aDELInProxyUserInfoIsKeptAsCurlKeepsIt() throws {
        // curl's REJECT_CTRL refuses bytes below 0x20 only.
        #expect(try URLParts.parse("http://u%7F:p@proxy.test:7", reading: .proxy).get().user == "u\u{7F}")
        #expect(try proxy("http://u%7F:p@proxy.test:7").credentials == ProxyCredentials(user: "u\u{7F}", password: "p"))
    }

    @Test func emptyProxyUserInfoIsAnEmptyUserName() throws {
        // curl -x http://@127.0.0.1:P sends "Proxy-Authorization: Basic Og==".
        let parts = try URLParts.parse("http://@proxy.test:7", reading: .proxy).get()
        #expect(parts.user == "" && parts.password == nil)
        let server = try proxy("http://@proxy.test:7")
        #expect(server.credentials == ProxyCredentials(user: "", password: nil))
        #expect(ProxyRoute.proxy(server, source: .option("--proxy")).curlOptions.contains(.proxyUsername("")))
    }

    @Test func targetUserInfoThatDecodesToAControlCharacterIsRefusedBeforeTheCall() {
        // A transfer refuses it with CURLE_URL_MALFORMAT once it starts.
        #expect(URLParts.parse("http://u%00@api.test/", reading: .transfer) == .failure(.undecodable))
        #expect(throws: ProbeInputError.self) { try ProbeRequest(parsing: "http://u%00@api.test/") }
    }
}
