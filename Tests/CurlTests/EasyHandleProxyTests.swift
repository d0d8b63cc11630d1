import Curl
import Foundation
import TestSupport
import Testing

/// Transfers through a proxy: the Python server plays a forward proxy that answers
/// absolute-form requests itself and refuses CONNECT with 407.
@Suite struct EasyHandleProxyTests {
    @Test func forwardsThroughProxyWithCredentialsAndRedactsThemInTheLog() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([
            .url("http://origin.test/path?q=1"), .proxy("http://127.0.0.1:\(server.port)"), .proxyType(.http),
            .proxyUsername("probe user"), .proxyPassword("s3cret:p@ss"), .verbose(true),
        ]).result.get()

        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("proxied GET http://origin.test/path?q=1"))
        #expect(body.contains("credentials probe user:s3cret:p@ss"))
        #expect(response.primaryIP == "127.0.0.1")
        #expect(response.primaryPort == server.port)
        #expect(response.connectStatusCode == 0, "no tunnel for an http:// target")

        let log = response.debugLog.text
        #expect(log.contains("> Proxy-Authorization: ***"))
        let encoded = Data("probe user:s3cret:p@ss".utf8).base64EncodedString()
        #expect(!log.contains(encoded))
        #expect(!log.contains("s3cret"))
    }

    @Test func refusedCONNECTReportsTheProxysStatus() throws {
        let server = try LoopbackServer.plain.get()
        let (result, _) = try transfer([
            .url("https://origin.test/"), .proxy("http://127.0.0.1:\(server.port)"), .verbose(true),
            .connectTimeout(milliseconds: 5_000),
        ])

        let error = try #require(result.failure)
        // libcurl 7.88.1 reports a non-2xx CONNECT answer as CURLE_RECV_ERROR (56).
        #expect(error.code == .recvError)
        #expect(error.message == "CONNECT tunnel failed, response 407")
        let partial = try #require(error.partialResponse)
        #expect(partial.connectStatusCode == 407)
        #expect(partial.statusCode == 0, "the origin never answered")
        #expect(partial.heads.first?.statusCode == 407)
        #expect(partial.heads.first?.value(for: "proxy-authenticate") == "Basic realm=\"probe\"")
        #expect(partial.debugLog.contains("CONNECT tunnel failed, response 407"))
    }

    @Test func proxyTunnelUsesCONNECTForHTTPTargetsToo() throws {
        let server = try LoopbackServer.plain.get()
        let (result, _) = try transfer([
            .url("http://origin.test/"), .proxy("http://127.0.0.1:\(server.port)"), .proxyTunnel(true),
            .connectTimeout(milliseconds: 5_000),
        ])

        #expect(result.failure?.partialResponse?.connectStatusCode == 407)
    }

    @Test func noProxyListBypassesTheProxy() throws {
        let server = try LoopbackServer.plain.get()
        let closed = try LoopbackPort.unused()
        let response = try transfer([
            .url(server.url("/hello")), .proxy("http://127.0.0.1:\(closed)"), .noProxy("127.0.0.1"),
        ]).result.get()

        #expect(response.statusCode == 200)
        #expect(response.primaryPort == server.port)
    }
}
