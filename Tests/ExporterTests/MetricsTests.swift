import ProbeKit
import Serialization
import Testing

@testable import Exporter

/// The text exposition format and the probe's metrics, checked by eye.
@Suite struct MetricsTests {
    @Test func aFamilyIsHelpTypeAndOneLinePerSample() {
        let family = MetricFamily(
            "probe_x", help: "a \\ b\nc",
            samples: [.init(labels: [("a", "q\"u\\o\nte")], value: 1), .init(value: 0.25), .init(value: .nan)])
        #expect(
            family.text
                == "# HELP probe_x a \\\\ b\\nc\n# TYPE probe_x gauge\nprobe_x{a=\"q\\\"u\\\\o\\nte\"} 1\nprobe_x 0.25\nprobe_x NaN\n"
        )
        #expect(MetricFamily("empty", help: "h", samples: []).text == "")
        #expect(MetricFamily.value(-.infinity) == "-Inf" && MetricFamily.value(1_798_727_823) == "1798727823")
    }

    /// blackbox's `probe_ssl_last_chain_info` labels name the leaf as Go prints names: the last
    /// attribute first, `TYPE=value`, commas between.
    @Test(arguments: [
        ("CN = localhost", "CN=localhost"),
        ("C = US, O = Example\\, Inc, CN = api.example.com", "CN=api.example.com,O=Example\\, Inc,C=US"),
        ("C = DE, serialNumber = 42, CN = x", "CN=x,SERIALNUMBER=42,C=DE"), ("", ""),
    ])
    func distinguishedNamesAreWrittenAsGoWritesThem(openSSL: String, go: String) {
        #expect(ProbeMetrics.goDistinguishedName(openSSL) == go)
    }

    @Test func curlsCumulativeTimesBecomeBlackboxsPhases() {
        let phases = ProbeMetrics.phases(ProbeTimings(dns: 1, connect: 3, tls: 10, firstByte: 14, total: 15))
        #expect(phases.map(\.phase) == ["resolve", "connect", "tls", "processing", "transfer"])
        #expect(phases.map(\.seconds) == [0.001, 0.002, 0.007, 0.004, 0.001])
        let refused = ProbeMetrics.phases(ProbeTimings(dns: 1, total: 2))
        #expect(refused.map(\.seconds) == [0.001, 0, 0, 0, 0])
    }

    @Test func aFailureNamesItsHopReasonAndURLError() throws {
        var result = ProbeResult(
            target: "https://a.test/", method: "GET", engine: "curl", route: nil,
            outcome: .failed(
                .hostNameMismatch(
                    hop: .target, host: "a.test", names: ["b.test"],
                    certificateFrom: InterceptionProducts.origin(issuer: nil, throughProxy: false))),
            message: nil)
        result.httpStatus = nil
        let text = ProbeMetrics.families(of: result, durationSeconds: 0.5).map(\.text).joined()
        #expect(text.contains("probe_success 0\n"))
        #expect(text.contains("probe_failure_info{hop=\"target\",reason=\"hostNameMismatch\",url_error=\"-1202\"} 1\n"))
        #expect(text.contains("probe_duration_seconds 0.5\n"))
        // blackbox registers these for every probe: 0 when no response came.
        #expect(text.contains("probe_http_content_length 0\n") && text.contains("probe_http_version 0\n"))
    }

    /// The address series are the first request's, as blackbox resolves the target once
    /// before any redirect; with no address known, both are 0, as blackbox registers them.
    @Test func theAddressIsTheFirstRequestsAndZeroWithoutOne() throws {
        func hop(_ url: String, _ address: String) throws -> RedirectHop {
            var answered = ProbeResult(target: url, method: "GET", engine: "curl", route: nil, outcome: .succeeded)
            answered.remoteAddress = address
            return RedirectHop(answered, request: try ProbeRequest(parsing: url), location: nil)
        }
        var result = ProbeResult(
            target: "http://a.test/", method: "GET", engine: "curl", route: nil, outcome: .succeeded, message: nil)
        result.httpStatus = 200
        result.hops = [try hop("http://a.test/", "10.0.0.1:80"), try hop("http://b.test/", "10.0.0.2:80")]
        result.remoteAddress = "10.0.0.2:80"
        let redirected = ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined()
        #expect(redirected.contains("probe_ip_addr_hash \(ProbeMetrics.fnv1a32([10, 0, 0, 1]))\n"), "\(redirected)")
        let unknown = ProbeResult(
            target: "file:///etc/passwd", method: "GET", engine: "curl", route: nil,
            outcome: .failed(.requestNotPrepared("no URL", hint: nil)), message: nil)
        let none = ProbeMetrics.families(of: unknown, durationSeconds: 0).map(\.text).joined()
        #expect(none.contains("probe_ip_protocol 0\n") && none.contains("probe_ip_addr_hash 0\n"), "\(none)")
    }

    /// blackbox's last-chain series describe the connection a response came over: after a
    /// failed handshake only the certificate's own facts remain (why it failed).
    @Test func theLastChainSeriesNeedAResponse() throws {
        var result = ProbeResult(
            target: "https://a.test/", method: "GET", engine: "curl", route: nil,
            outcome: .failed(.patternMismatch("x")), message: nil)
        var tls = TLSFacts(chainVerified: true, nameVerified: true, subject: "CN=a.test", subjectAlternativeNames: ["DNS:a.test"])
        tls.earliestExpiry = 1_800_000_000
        tls.version = "TLSv1.3"
        result.tls = tls
        result.httpStatus = nil
        let failed = ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined()
        #expect(failed.contains("probe_ssl_earliest_cert_expiry 1800000000\n"), "\(failed)")
        #expect(failed.contains("probe_tls_version_info{version=\"TLS 1.3\"} 1\n"), "\(failed)")
        #expect(!failed.contains("probe_ssl_last_chain"), "\(failed)")
        result.httpStatus = 200
        let answered = ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined()
        #expect(answered.contains("probe_ssl_last_chain_expiry_timestamp_seconds 1800000000\n"), "\(answered)")
        #expect(answered.contains("probe_ssl_last_chain_info{"), "\(answered)")
    }

    /// blackbox's address series: the family of the address connected to (or of a target
    /// written as an address), and Go's FNV-1a hash of its bytes; a pattern's failure counted.
    @Test func theAddressSeriesAndAPatternFailureAreBlackboxs() throws {
        #expect(ProbeMetrics.fnv1a32([127, 0, 0, 1]) == 3_668_918_509)
        #expect(ProbeMetrics.ipAddressBytes("127.0.0.1:8080") == [127, 0, 0, 1])
        #expect(ProbeMetrics.ipAddressBytes("[::ffff:10.0.0.1]:443") == [10, 0, 0, 1])
        #expect(ProbeMetrics.ipAddressBytes("[::1]:443")?.count == 16)
        #expect(ProbeMetrics.ipAddressBytes("localhost:80") == nil)
        #expect(
            ProbeMetrics.host(of: "http://u:p@[::1]:8/x") == "[::1]" && ProbeMetrics.host(of: "http://10.1.2.3:9") == "10.1.2.3")
        var result = ProbeResult(
            target: "http://10.1.2.3:9/", method: "GET", engine: "curl", route: nil,
            outcome: .failed(.patternMismatch("the body does not match the pattern /ok/")), message: nil)
        result.httpStatus = 200
        let text = ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined()
        #expect(text.contains("probe_failed_due_to_regex 1\n") && text.contains("probe_ip_protocol 4\n"), "\(text)")
        #expect(text.contains("probe_ip_addr_hash \(ProbeMetrics.fnv1a32([10, 1, 2, 3]))\n"))
        // No Content-Length (a chunked body): -1, as Go's resp.ContentLength; the body's own length beside it.
        result.bodyByteCount = 12
        let chunked = ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined()
        #expect(
            chunked.contains("probe_http_content_length -1\n") && chunked.contains("probe_http_uncompressed_body_length 12\n"))
        result.contentLength = 12
        #expect(
            ProbeMetrics.families(of: result, durationSeconds: 0.1).map(\.text).joined().contains(
                "probe_http_content_length 12\n"))
    }

    @Test func theTimeoutIsTheModulesBoundedByTheScrapes() {
        // blackbox's getTimeout: the scrape's limit less the offset, or the module's when shorter.
        #expect(ExporterHandler.timeout(module: 5, scrape: "10", offset: 0.5) == 5)
        #expect(ExporterHandler.timeout(module: 30, scrape: "10", offset: 0.5) == 9.5)
        // No header, or 0: 120 s.
        #expect(ExporterHandler.timeout(module: nil, scrape: nil, offset: 0.5) == 119.5)
        #expect(ExporterHandler.timeout(module: 30, scrape: "0", offset: 0.5) == 30)
        // Less than the offset: the module's; with none, as good as nothing.
        #expect(ExporterHandler.timeout(module: 3, scrape: "0.3", offset: 0.5) == 3)
        #expect(ExporterHandler.timeout(module: nil, scrape: "0.3", offset: 0.5) == 0.001)
        #expect(ExporterHandler.timeout(module: nil, scrape: "abc", offset: 0.5) == nil)
    }

    @Test func queryParametersAreDecodedAsGoDoes() {
        let (path, query) = ExporterHandler.split("/probe?target=http%3A%2F%2Fa.test%2F%3Fq%3D1&module=a+b&target=second")
        #expect(path == "/probe")
        #expect(query == ["target": "http://a.test/?q=1", "module": "a b"])
        // A broken escape stays as sent, the others decoded: as the sanity server reads a query.
        #expect(ExporterHandler.split("/probe?target=http%3A%2F%2Fa.test%2F100%25%zz").query["target"] == "http://a.test/100%%zz")
    }

    @Test func goDurationsReadAsBlackboxsConfigWritesThem() {
        #expect(GoDuration.seconds("5s") == 5 && GoDuration.seconds("1m30s") == 90 && GoDuration.seconds("500ms") == 0.5)
        #expect(GoDuration.seconds("1.5h") == 5400 && GoDuration.seconds("0") == 0)
        #expect(GoDuration.seconds("5") == nil && GoDuration.seconds("") == nil && GoDuration.seconds("5 s") == nil)
        // Go's time.Duration, which blackbox's timeout is: no Prometheus days.
        #expect(GoDuration.seconds("1d") == nil && GoDuration.seconds("0s") == 0)
    }

    @Test func thePageEscapesWhatTheProbeSaw() {
        #expect(MarkupText.escaped("<script>&\"'") == "&lt;script&gt;&amp;&quot;&apos;")
    }

    @Test func theAccessLogNeverShowsAProbedURLsUserInfo() {
        #expect(
            ExporterHandler.loggable("/probe?target=https://alice:s3cret@a.test/&module=m")
                == "/probe?target=https://alice:***@a.test/&module=m")
        #expect(
            ExporterHandler.loggable("/probe?module=m&target=https%3A%2F%2FTOKEN%40a.test%2F")
                == "/probe?module=m&target=https://***@a.test/")
        #expect(ExporterHandler.loggable("/probe?target=http://a.test/") == "/probe?target=http://a.test/")
        #expect(ExporterHandler.loggable("/metrics") == "/metrics")
    }
}
