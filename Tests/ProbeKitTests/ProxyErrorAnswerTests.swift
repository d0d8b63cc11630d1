import Foundation
import Testing

@testable import ProbeKit

/// A proxy's own error answer chooses the report's words (`probe-proxy-read-timeout-called-unreachable`,
/// part B): each RFC 9209 `Proxy-Status` error type and squid `ERR_*` code by what it says
/// happened, the page's own words, and the proxy of a chain that answered.
@Suite struct ProxyErrorAnswerTests {
    static let route = ProxyRoute.proxy(
        ProxyServer(scheme: .http, host: "proxy.test", port: 3128), source: .option("--proxy"))

    /// The reason for a forwarded answer with these fields.
    static func reason(status: Int, _ fields: [(name: String, value: String)], body: String = "") throws -> FailureReason {
        let request = try ProbeRequest(parsing: "http://api.example.test/health")
        let check = ResponseCheck(request: request, route: route, tunnel: false)
        return try #require(
            check.failure(
                status: status, statusLine: "HTTP/1.1 \(status) X", fields: fields, body: Array(body.utf8),
                bodyByteCount: body.utf8.count))
    }

    @Test(arguments: [
        ("error=dns_error; rcode=NXDOMAIN", "proxyBadGateway", "proxy", "could not resolve the name api.example.test"),
        ("ExampleProxy; error=http_response_timeout", "timeout", "target", "did not answer within the proxy's own read timeout"),
        ("ExampleProxy; error=tls_certificate_error", "proxyBadGateway", "proxy", "could not make a TLS connection"),
        ("ExampleProxy; error=connection_refused", "proxyBadGateway", "proxy", "could not connect to api.example.test:80"),
        ("ExampleProxy; error=http_request_denied", "proxyForbidden", "proxy", "refused the request"),
        ("ExampleProxy; error=http_response_incomplete", "proxyBadGateway", "target", "its answer broke off"),
        ("ExampleProxy; error=proxy_loop_detected", "proxyBadGateway", "proxy", "failed on its own"),
    ])
    func proxyStatusErrorTypesChooseTheWords(status: String, code: String, hop: String, words: String) throws {
        let reason = try Self.reason(status: 502, [("Proxy-Status", status)])
        #expect(reason.code.rawValue == code)
        #expect(reason.hop.rawValue == hop)
        #expect(reason.message.contains(words), "\(reason.message)")
        #expect(reason.message.contains("Proxy-Status: \(status)"))
        // The member that reported the error is named: it may be an intermediary before the origin.
        if status.hasPrefix("ExampleProxy") { #expect(reason.message.hasPrefix("the intermediary ExampleProxy")) }
    }

    @Test func squidsReadTimeoutIsASlowTargetAndItsConnectFailureIsUnreachable() throws {
        let slow = try Self.reason(status: 504, [("X-Squid-Error", "ERR_READ_TIMEOUT 0")])
        #expect(slow.code == .timeout && slow.hop == .target)
        #expect(slow.hint?.contains("read_timeout") == true)
        let refused = try Self.reason(status: 503, [("X-Squid-Error", "ERR_CONNECT_FAIL 111")])
        #expect(refused.code == .proxyBadGateway && refused.message.hasPrefix("the proxy could not connect to"))
        #expect(refused.hint == "check that api.example.test:80 is up and reachable from the proxy")
    }

    /// squid's page: the elements that say what happened, without its style sheet; the data
    /// block inside the system message is said once.
    @Test func aSquidPageGivesItsErrorAndSystemMessage() throws {
        let page = """
            <html><head><style type="text/css"><!-- body { color: red } --></style></head><body>
            <div id="content"><blockquote id="error"><p><b>Failed to establish a secure connection to 10.0.0.7</b></p></blockquote>
            <div id="sysmsg"><p>The system returned:</p><blockquote id="data"><pre>(71) Protocol error (TLS code: X509_V_ERR_CERT_HAS_EXPIRED)</pre>
            <p>SSL Certificate expired on: Feb  1 00:00:00 2020 GMT</p></blockquote></div></div></body></html>
            """
        #expect(
            ProxyErrorPage.words(of: Array(page.utf8))
                == "Failed to establish a secure connection to 10.0.0.7 The system returned: (71) Protocol error (TLS code: "
                + "X509_V_ERR_CERT_HAS_EXPIRED) SSL Certificate expired on: Feb 1 00:00:00 2020 GMT")
        #expect(ProxyErrorPage.words(of: Array("<p>a &amp; b</p><script>x()</script>".utf8)) == "a & b")
        #expect(ProxyErrorPage.words(of: []) == nil)
    }

    /// Via's entries, the one nearest the target first: two or more name the proxy behind the
    /// configured one that answered.
    @Test func viaNamesTheProxyOfAChainThatAnswered() throws {
        #expect(
            ProxyErrorAnswer.viaNames(["1.1 parent-squid (squid/5.7), 1.1 child-squid (squid/5.7)", "HTTP/1.1 edge"])
                == ["parent-squid", "child-squid", "edge"])
        let chained = try Self.reason(
            status: 502,
            [("X-Squid-Error", "ERR_CONNECT_FAIL 111"), ("Via", "1.1 parent-squid (squid/5.7), 1.1 child-squid (squid/5.7)")])
        #expect(chained.message.hasPrefix("the proxy parent-squid, behind the one configured"), "\(chained.message)")
    }

    /// An interceptor whose own upstream proxy asks for credentials (mitmproxy in upstream
    /// mode): its page says so, and the hint is about the upstream's credentials, not the target.
    @Test func anInterceptorsUpstreamAskingForCredentialsIsSaid() throws {
        let page =
            "<html><body><h1>502 Bad Gateway</h1><p>Upstream proxy 127.0.0.1:3128 refused HTTP CONNECT "
            + "request: 407 Proxy Authentication Required</p></body></html>"
        let answer = ProxyErrorAnswer(evidence: "the certificate's issuer names mitmproxy", body: Array(page.utf8))
        #expect(answer.happening == .upstreamProxyAuthentication)
        let reason = FailureReason.proxyOwnAnswer(
            status: "502 Bad Gateway", code: 502, authority: "api.test:443", host: "api.test", onConnect: false,
            answer: answer, interceptor: "mitmproxy")
        #expect(reason.code == .proxyAuthenticationRequired && reason.hop == .proxy)
        #expect(reason.message.contains("its own upstream proxy asks it for credentials"), "\(reason.message)")
        #expect(reason.hint?.contains("--upstream-auth") == true && reason.hint?.contains("check the target") == false)
    }

    /// A `Server` naming squid is evidence outside TLS, not inside: origins behind a reverse
    /// squid send it on every answer.
    @Test func onlyErrorFieldsProveInterception() throws {
        let server = try #require(ProxyErrorAnswer(fields: [("Server", "squid/5.7")], body: []))
        #expect(!server.provesInterception && server.product == "squid")
        let squid = try #require(ProxyErrorAnswer(fields: [("X-Squid-Error", "ERR_SECURE_CONNECT_FAIL 0")], body: []))
        #expect(squid.provesInterception && squid.product == "squid" && squid.happening == .targetTLSFailed)
        #expect(ProxyErrorAnswer(fields: [("Server", "nginx")], body: []) == nil)
    }
}
