import Curl
import Testing

/// Plain transfers against the Python server on loopback: what `perform` collects.
@Suite struct EasyHandleTransferTests {
    @Test func collectsStatusHeadersBodyAddressAndOrderedTimings() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([.url(server.url("/hello"))]).result.get()

        #expect(response.statusCode == 200)
        #expect(response.headerValue(for: "x-probe-test") == "yes")
        #expect(response.heads.count == 1)
        #expect(response.heads.first?.statusLine.hasPrefix("HTTP/1.") == true)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello, probe\n")
        #expect(response.bodyByteCount == 13)
        #expect(!response.isBodyTruncated)
        #expect(response.primaryIP == "127.0.0.1")
        #expect(response.primaryPort == server.port)
        #expect(response.connectStatusCode == 0)
        #expect(response.certificates.isEmpty)

        let timings = response.timings
        #expect(timings.nameLookup > 0)
        #expect(timings.total > 0)
        #expect(timings.appConnect == 0, "no TLS, no TLS handshake time")
        #expect(timings.nameLookup <= timings.connect)
        #expect(timings.connect <= timings.preTransfer)
        #expect(timings.preTransfer <= timings.startTransfer)
        #expect(timings.startTransfer <= timings.total)
        #expect(timings.total < 5_000, "milliseconds, not microseconds")
    }

    @Test func keepsAtMostMaxBodyBytesAndCountsTheRest() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([.url(server.url("/big"))], maxBodyBytes: 1_000).result.get()

        #expect(response.body.count == 1_000)
        #expect(response.bodyByteCount == 100_000)
        #expect(response.isBodyTruncated)
    }

    @Test func sendsCustomMethodAndHeaderLines() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([
            .url(server.url("/echo")), .customRequest("DELETE"), .httpHeaders(["X-Probe: one", "Accept: text/plain"]),
        ]).result.get()

        let echoed = String(decoding: response.body, as: UTF8.self)
        #expect(echoed.hasPrefix("DELETE /echo\n"))
        #expect(echoed.contains("X-Probe: one"))
        #expect(echoed.contains("Accept: text/plain"))
    }

    @Test func noBodySendsHeadAndReadsNoBody() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([.url(server.url("/hello")), .noBody(true)]).result.get()

        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.headerValue(for: "Content-Length") == "13")
    }

    @Test func verboseOutputIsCapturedNotPrinted() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([.url(server.url("/hello")), .verbose(true)]).result.get()

        let log = response.debugLog
        #expect(log.entries.contains { $0.kind == .text && $0.text.contains("Connected to 127.0.0.1") })
        #expect(log.entries.contains { $0.kind == .headerOut && $0.text.hasPrefix("GET /hello HTTP/1.1") })
        #expect(log.entries.contains { $0.kind == .headerIn && $0.text.hasPrefix("HTTP/1.") })
        #expect(log.text.contains("> GET /hello HTTP/1.1"))
        #expect(log.text.contains("< X-Probe-Test: yes"))
    }

    @Test func quietTransferHasEmptyDebugLog() throws {
        let server = try LoopbackServer.plain.get()
        let response = try transfer([.url(server.url("/hello"))]).result.get()

        #expect(response.debugLog.entries.isEmpty)
    }

    @Test func reusesHandleForSecondTransfer() throws {
        let server = try LoopbackServer.plain.get()
        let handle = try EasyHandle()
        try handle.set(.url(server.url("/hello")))
        let first = try handle.perform()
        try handle.set(.url(server.url("/nowhere")))
        let second = try handle.perform()

        #expect(first.statusCode == 200)
        #expect(second.statusCode == 404)
        #expect(String(decoding: second.body, as: UTF8.self) == "not found\n")
    }

    @Test func refusesSchemesOutsideHTTPAndHTTPS() throws {
        let error = try transfer([.url("file:///etc/hostname")]).result.failure
        #expect(error?.code == .unsupportedProtocol)
    }
}
