import Foundation
import ProbeKit
import Testing

/// Proxy passwords, URL passwords and credential header values never reach any output.
@Suite struct RedactionTests {
    @Test func everyFormatOfTheSampleReportsHidesTheProxyPassword() throws {
        for format in ReportFormat.allCases {
            let report = format.render(try ReportSamples.results, colored: true)
            #expect(!report.contains("pr0xy-S3cret"), "\(format)")
            #expect(report.contains("alice:***@127.0.0.1:3128"), "\(format)")
        }
    }

    @Test func theRunsSecretsAreCollectedFromEveryPlace() throws {
        let settings = ProbeSettings(
            proxy: ProxyConfiguration(
                proxy: "http://alice:p%40ss-word@proxy.test:3128", environment: ["https_proxy": "http://bob:env-secret@p2.test:1"]
            ))
        let request = try ProbeRequest(
            parsing: "https://carol:url-secret@api.test/",
            headers: [
                try RequestHeader(parsing: "Authorization: Bearer tok-123456"), try RequestHeader(parsing: "Accept: text/plain"),
            ])
        let redactor = SecretRedactor.forRun(settings: settings, requests: [request])
        for secret in ["p@ss-word", "p%40ss-word", "env-secret", "url-secret", "Bearer tok-123456", "tok-123456"] {
            #expect(redactor.secrets.contains(secret), "\(secret)")
        }
        #expect(!redactor.secrets.contains("text/plain"))
        #expect(redactor.redact("sent p@ss-word and tok-123456 to p%40ss-word") == "sent *** and *** to ***")
    }

    @Test func shortSecretsAreNotScrubbedEverywhere() {
        #expect(SecretRedactor(secrets: ["ab", "abc"]).redact("a b ab abc") == "a b ab ***")
    }

    @Test func liveCallsThroughTheAuthenticatingProxyNeverShowThePassword() throws {
        let lab = try LoopbackLab.shared.get()
        let password = LoopbackLab.password
        let header = try RequestHeader(parsing: "Authorization: Bearer header-S3cret-value")
        var results: [ProbeResult] = []
        for proxyPassword in [password, "wrong-\(password)"] {
            let probeSettings = try settings(proxy: "http://\(LoopbackLab.user):\(proxyPassword)@127.0.0.1:\(lab.authProxy)")
            for url in [lab.origin("/hello"), lab.secure("good"), "http://u:url-S3cret@127.0.0.1:\(lab.closed)/"] {
                let request = try ProbeRequest(parsing: url, headers: [header])
                let result = CurlProbeEngine(settings: probeSettings).probe(request, cancellation: ProbeCancellation())
                results.append(result.redacted(by: SecretRedactor.forRun(settings: probeSettings, requests: [request])))
            }
        }
        #expect(results[0].outcome == .succeeded)
        #expect(results[3].code == .proxyAuthenticationRequired)
        #expect(results[4].code == .proxyAuthenticationRequired)
        for format in ReportFormat.allCases {
            let report = format.render(results)
            for secret in [password, "header-S3cret-value", "url-S3cret"] {
                #expect(!report.contains(secret), "\(format) shows \(secret)")
            }
        }
    }
}
