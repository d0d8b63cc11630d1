import Foundation
import ProbeKit
import Testing

/// The URLSession engine: what it refuses, how it hands the proxy to libcurl, and real calls.
@Suite struct URLSessionEngineTests {
    @Test func hintsNamingARefusedOptionSayItIsTheCurlEngines() {
        let untrusted = FailureReason(
            code: .certificateNotTrusted, hop: .target, message: "m", hint: "add --cacert FILE with the issuer's CA")
        #expect(
            URLSessionProbeEngine.withHintForThisEngine(untrusted).hint
                == "with --engine curl: add --cacert FILE with the issuer's CA")
        let status = FailureReason(code: .unexpectedStatus, hop: .target, message: "m", hint: "add --expect-status 404")
        #expect(URLSessionProbeEngine.withHintForThisEngine(status).hint == "add --expect-status 404")
    }

    @Test func optionsURLSessionCannotHonourAreRefusedNotIgnored() throws {
        var settings = ProbeSettings(
            forcesTunnel: true,
            security: SecurityPolicy(
                validatesDomainName: false, allowsInvalidCertificates: true, caFile: "/ca.pem",
                pinnedPublicKeys: [try PublicKeyPin(parsing: "sha256//" + Data(count: 32).base64EncodedString())],
                proxyCAFile: "/p.pem", proxyInsecure: true),
            resolve: [try ResolveEntry(parsing: "a.test:443:127.0.0.1")], connectTimeout: 3)
        settings.comparesDirect = true
        #expect(
            URLSessionProbeEngine.unsupportedOptions(in: settings).map(\.option) == [
                "--no-validate-domain-name", "--allow-invalid-certificates", "--pinned-public-key", "--cacert", "--proxy-cacert",
                "--proxy-insecure", "--proxytunnel", "--resolve", "--connect-timeout", "--compare-direct",
            ])
        #expect(URLSessionProbeEngine.unsupportedOptions(in: settings).map(\.option) == URLSessionProbeEngine.refusedOptionNames)
        #expect(throws: ProbeEngineError.self) { try URLSessionProbeEngine(settings: settings, setEnvironment: { _, _ in }) }
        do {
            _ = try URLSessionProbeEngine(
                settings: ProbeSettings(resolve: [try ResolveEntry(parsing: "a.test:443:127.0.0.1")]), setEnvironment: { _, _ in }
            )
        } catch {
            #expect(
                "\(error)"
                    == "--engine urlsession cannot honour --resolve (FoundationNetworking sets no such libcurl option (CURLOPT_RESOLVE)); use --engine curl, or leave it out"
            )
        }
        #expect(URLSessionProbeEngine.unsupportedOptions(in: ProbeSettings(maxTime: 3)).isEmpty)
    }

    @Test func theProxyReachesLibcurlThroughTheEnvironmentAsTheSettingsSay() {
        func environment(_ configuration: ProxyConfiguration) -> [String: String] {
            var values: [String: String] = [:]
            for (name, value) in URLSessionProbeEngine.proxyEnvironment(for: configuration) { values[name] = value }
            return values
        }
        #expect(
            environment(ProxyConfiguration(proxy: "http://u:p@proxy.test:3128", noProxy: ".internal"))
                == [
                    "http_proxy": "http://u:p@proxy.test:3128", "https_proxy": "http://u:p@proxy.test:3128",
                    "HTTPS_PROXY": "http://u:p@proxy.test:3128", "no_proxy": ".internal", "NO_PROXY": ".internal",
                ])
        #expect(
            environment(ProxyConfiguration(proxy: "", environment: ["https_proxy": "http://e.test:1"])) == [
                "https_proxy": "http://e.test:1", "no_proxy": "*", "NO_PROXY": "*",
            ])
        #expect(
            environment(ProxyConfiguration(environment: ["ALL_PROXY": "http://a.test:1", "HTTP_PROXY": "x"])) == [
                "ALL_PROXY": "http://a.test:1"
            ])
        let unset = URLSessionProbeEngine.proxyEnvironment(for: ProxyConfiguration())
        #expect(unset.count == 7 && unset.allSatisfy { $0.1 == nil })
    }

    @Test func realCallsReportWhatFoundationNetworkingSaw() throws {
        let lab = try LoopbackLab.shared.get()
        let engine = try URLSessionProbeEngine(settings: ProbeSettings(proxy: ProxyConfiguration(proxy: ""), maxTime: 5))
        func call(_ url: String) throws -> ProbeResult {
            engine.probe(try ProbeRequest(parsing: url), cancellation: ProbeCancellation())
        }
        let hello = try call(lab.origin("/hello"))
        #expect(hello.outcome == .succeeded)
        #expect(hello.engine == "urlsession")
        #expect(hello.httpStatus == 200)
        #expect(try call(lab.origin("/status/503")).code == .unexpectedStatus)
        let refused = try call("http://127.0.0.1:\(lab.closed)/")
        #expect(refused.code == .connectFailed)
        #expect(refused.outcome.failureReason?.appleError?.code == -1004)
        let untrusted = try call(lab.secure("selfsigned"))
        #expect(untrusted.code == .certificateNotTrusted)
        #expect(untrusted.outcome.failureReason?.appleError?.note?.contains("an app on Apple platforms gets -1202") == true)
    }
}
