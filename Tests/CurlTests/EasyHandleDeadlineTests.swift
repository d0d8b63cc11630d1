import Curl
import TestSupport
import Testing

/// Failures that must come back with the right code within their deadline: a peer that accepts
/// and never answers, a closed port, names that do not resolve.
@Suite struct EasyHandleDeadlineTests {
    @Test func totalTimeoutEndsSilentServer() throws {
        let listener = try SilentListener()
        let (result, elapsed) = try transfer([
            .url("http://127.0.0.1:\(listener.port)/"), .connectTimeout(milliseconds: 5_000), .timeout(milliseconds: 300),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .operationTimedOut)
        #expect(error.message.contains("Operation timed out"))
        #expect(elapsed >= .milliseconds(250))
        #expect(elapsed < .milliseconds(1_500))
        #expect(error.partialResponse?.timings.connect ?? 0 > 0, "TCP connect succeeded before the wait")
    }

    @Test func connectTimeoutCoversTLSHandshakeWithSilentServer() throws {
        let listener = try SilentListener()
        let (result, elapsed) = try transfer([
            .url("https://127.0.0.1:\(listener.port)/"), .connectTimeout(milliseconds: 300),
            .timeout(milliseconds: 10_000),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .operationTimedOut)
        #expect(elapsed >= .milliseconds(250))
        #expect(elapsed < .milliseconds(1_500))
    }

    @Test func connectTimeoutCoversSilentProxyCONNECT() throws {
        let listener = try SilentListener()
        let (result, elapsed) = try transfer([
            .url("https://probe.invalid/"), .proxy("http://127.0.0.1:\(listener.port)"),
            .connectTimeout(milliseconds: 300), .timeout(milliseconds: 10_000), .verbose(true),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .operationTimedOut)
        #expect(elapsed < .milliseconds(1_500))
        let log = try #require(error.partialResponse?.debugLog)
        #expect(log.entries.contains { $0.kind == .headerOut && $0.text.hasPrefix("CONNECT probe.invalid:443") })
    }

    @Test func closedPortGivesCouldntConnect() throws {
        let port = try LoopbackPort.unused()
        let (result, elapsed) = try transfer([
            .url("http://127.0.0.1:\(port)/"), .connectTimeout(milliseconds: 2_000), .timeout(milliseconds: 5_000),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .couldntConnect)
        #expect(error.message.contains("127.0.0.1 port \(port)"))
        #expect(elapsed < .milliseconds(1_000))
    }

    @Test func closedProxyPortGivesCouldntConnect() throws {
        let port = try LoopbackPort.unused()
        let (result, _) = try transfer([
            .url("https://probe.invalid/"), .proxy("http://127.0.0.1:\(port)"), .connectTimeout(milliseconds: 2_000),
        ])

        #expect(result.failure?.code == .couldntConnect)
    }

    @Test func invalidHostNameGivesCouldntResolveHost() throws {
        let (result, elapsed) = try transfer([
            .url("http://\(unresolvableHost)/"), .connectTimeout(milliseconds: 5_000), .timeout(milliseconds: 8_000),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .couldntResolveHost)
        #expect(error.message == "Could not resolve host: \(unresolvableHost)")
        #expect(elapsed < .seconds(6))
    }

    @Test func invalidProxyNameGivesCouldntResolveProxy() throws {
        let (result, elapsed) = try transfer([
            .url("http://example.test/"), .proxy("http://no-such-\(unresolvableHost):3128"),
            .connectTimeout(milliseconds: 5_000), .timeout(milliseconds: 8_000),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .couldntResolveProxy)
        #expect(error.message == "Could not resolve proxy: no-such-\(unresolvableHost)")
        #expect(elapsed < .seconds(6))
    }

    @Test func negativeTimeoutIsRefusedNamingTheOption() throws {
        let handle = try EasyHandle()
        let error = #expect(throws: CurlError.self) { try handle.set(.timeout(milliseconds: -1)) }
        #expect(error?.code == .badFunctionArgument)
        #expect(error?.context == "curl_easy_setopt(CURLOPT_TIMEOUT_MS)")
        #expect(error?.message == "CURLOPT_TIMEOUT_MS must be 0 or more milliseconds, not -1")
    }

    @Test func unknownSchemeInProtocolsIsRefusedByLibcurl() throws {
        let handle = try EasyHandle()
        let error = #expect(throws: CurlError.self) { try handle.set(.protocols("http,bogus")) }
        #expect(error?.code == .unsupportedProtocol)
        #expect(error?.context == "curl_easy_setopt(CURLOPT_PROTOCOLS_STR)")
    }
}
