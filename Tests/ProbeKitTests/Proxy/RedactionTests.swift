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

    /// Secrets are removed where they stand: text that merely equals a password elsewhere
    /// (a host, a path, a port) is shown as written, so the report stays true and the stars
    /// tell nothing about the password.
    @Test(arguments: [
        ("http://bob:127@127.0.0.1:9/x", "http://bob:***@127.0.0.1:9/x"),
        ("http://bob:pass@127.0.0.1:9/passport", "http://bob:***@127.0.0.1:9/passport"),
        ("http://bob:0.0@127.0.0.1:9/", "http://bob:***@127.0.0.1:9/"),
        ("https://TOKEN@api.test/", "https://***@api.test/"), ("https://:pw@api.test/", "https://:***@api.test/"),
    ])
    func targetsLoseOnlyTheirUserInfoSecret(url: String, shown: String) throws {
        #expect(try ProbeRequest(parsing: url).target == shown)
    }

    @Test func aProxyUserNameAloneIsATokenAndIsHidden() throws {
        let server = try ProxyServer(parsing: "http://KEY-123@127.0.0.1:3128", source: .option("--proxy"))
        #expect(server.description == "http://***@127.0.0.1:3128")
        let withPassword = try ProxyServer(parsing: "http://alice:pw@127.0.0.1:3128", source: .option("--proxy"))
        #expect(withPassword.description == "http://alice:***@127.0.0.1:3128")
    }

    @Test func messagesFromLibcurlOrAServerLoseTheUserInfoOfEveryURLInThem() {
        let result = ProbeResult(
            target: "http://127.0.0.1:9/", method: "GET", engine: "curl", route: nil, outcome: .succeeded,
            message: "redirected to https://u:s3cret@h.test/a and \"http://tok@h.test:1\"; 127.0.0.1 stays",
            warnings: ["Authorization: Bearer abc"])
        let redacted = result.redacted()
        #expect(redacted.message == "redirected to https://u:***@h.test/a and \"http://***@h.test:1\"; 127.0.0.1 stays")
        #expect(redacted.warnings == ["Authorization: ***"])
    }

    @Test(arguments: ["Qx@Zk:Wv/Jm", "Qx/Zk", "Qx#Zk", "Qx?Zk", "Qx@Zk"])
    func aProxyPasswordWithUnencodedSpecialsIsRefusedShowingNoneOfIt(password: String) {
        do {
            _ = try ProxyServer(parsing: "http://alice:\(password)@127.0.0.1:3128", source: .option("--proxy"))
            Issue.record("accepted \(password)")
        } catch {
            #expect(error.description.contains("http://alice:***@127.0.0.1:3128"), "\(error)")
            #expect(error.description.contains("which must be written %"), "\(error)")
            for piece in password.split(whereSeparator: { "@/#?:".contains($0) }) where piece.count > 1 {
                #expect(!error.description.contains(piece), "\(error) shows \(piece)")
            }
        }
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
                results.append(result.redacted())
            }
        }
        try #require(results.count >= 5)
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
