import Foundation
import ProbeKit
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The three report formats against golden files a reader can check by eye
/// (`Golden/reports/report.{txt,json,xml}`); `RECORD_GOLDEN=1 swift test` re-records them.
@Suite struct ReportGoldenTests {
    private let samples: [ProbeResult]

    init() throws {
        samples = try ReportSamples.results
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/reports")

    private func check(_ text: String, against name: String) throws {
        let file = Self.folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            guard (try? String(contentsOf: file, encoding: .utf8)) != text else { return }
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            // A recording run is never mistaken for a passing one.
            Issue.record("recorded \(name); read the diff, then run again without RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "re-record with RECORD_GOLDEN=1 if the change is intended")
    }

    @Test func textReport() throws {
        try check(ReportFormat.text.render(samples), against: "report.txt")
    }

    @Test func jsonReport() throws {
        try check(ReportFormat.json.render(samples), against: "report.json")
    }

    @Test func junitReport() throws {
        try check(ReportFormat.junit.render(samples), against: "report.xml")
    }

    @Test func jsonReportParsesWithTheDocumentedFieldsOnEveryProbe() throws {
        let data = Data(ReportFormat.json.render(samples).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let probes = try #require(object["probes"] as? [[String: Any]])
        let fields: Set = [
            "target", "method", "repetition", "engine", "route", "proxy", "noProxyMatch", "outcome", "reason", "message", "hop",
            "urlError", "hint", "warnings", "httpStatus", "connectStatus", "redirects", "hops", "pac", "tls", "proxyTls",
            "appleClients",
            "appleTrust", "appleRootOnlyThisMachineTrusts", "certificateFrom", "certificateFromEvidence", "timings",
            "remoteAddress",
        ]
        // A call that never started has the compact record; every other one every field.
        let compact: Set = ["target", "method", "repetition", "engine", "outcome", "message"]
        for (probe, result) in zip(probes, samples) { #expect(Set(probe.keys) == (result.started ? fields : compact)) }
        #expect(object["summary"] as? [String: Int] == ["succeeded": 2, "failed": 3, "cancelled": 2])
        try #require(probes.count >= 5)
        let mismatch = probes[1]
        #expect(mismatch["reason"] as? String == "hostNameMismatch")
        #expect((mismatch["urlError"] as? [String: Any])?["code"] as? Int == -1202)
        #expect((mismatch["tls"] as? [String: Any])?["nameVerified"] as? Bool == false)
        #expect((probes[4]["urlError"] as? [String: Any])?["name"] as? String == "cancelled")
        #expect(probes[3]["noProxyMatch"] as? String == ".internal")
        let hops = try #require(probes[3]["hops"] as? [[String: Any]])
        #expect(hops.map { $0["httpStatus"] as? Int } == [301, 503])
        #expect(hops.map { $0["location"] as? String } == ["http://api.internal/status/", nil])
        #expect(hops.allSatisfy { $0["route"] as? String == "direct" })
        #expect((probes[0]["hops"] as? [Any])?.isEmpty == true)
    }

    @Test func junitReportIsWellFormedXMLWithOneTestCasePerCall() throws {
        let xml = ReportFormat.junit.render(samples)
        let document = try XMLDocument(data: Data(xml.utf8))
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == samples.count)
        #expect(try document.nodes(forXPath: "//failure").count == 3)
        // Interrupted: skipped; cut off by --deadline, which fails the run: an error.
        #expect(try document.nodes(forXPath: "//skipped").count == 1)
        #expect(try document.nodes(forXPath: "//error[@type='cancelled']").count == 1)
        let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
        let failure = try #require(
            try document.nodes(forXPath: "//failure[@type='proxyAuthenticationRequired']").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("realm=\"corp <main> & co\"") == true)
    }

    @Test func controlCharactersFromTheNetworkAreShownEscaped() throws {
        let request = try ProbeRequest(parsing: "http://a.test/")
        let result = ProbeResult(
            target: request.target, method: "GET", repetition: 1, engine: "curl", route: .direct(.noProxyConfigured),
            outcome: .failed(.unexpectedStatus(status: "418 I'm a teapot", code: 418, expected: .default)),
            message: "realm=\"r\u{1B}[2J\u{7}\u{9B}x\"\ttab", httpStatus: 418)
        let text = TextReport(colored: true).render([result])
        #expect(text.contains("message    realm=\"r\\x1B[2J\\x07\\x9Bx\"\ttab\n"), "\(text)")
        #expect(text.filter { $0 == "\u{1B}" }.count == 2, "only the colour of the outcome word")
    }

    @Test func colourMarksOnlyTheOutcomeWordAndOnlyWhenAsked() {
        let plain = TextReport().render(samples)
        #expect(!plain.contains("\u{1B}["))
        let colored = TextReport(colored: true).render(samples)
        #expect(colored.contains("\u{1B}[32msucceeded\u{1B}[0m  GET https://localhost:8443/health"))
        #expect(colored.contains("\u{1B}[31mfailed\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[33mcancelled\u{1B}[0m"))
    }

    @Test func xmlEscapingReplacesCharactersXMLCannotCarry() throws {
        try #require(samples.count >= 3)
        var result = samples[2]
        result.message = "bell\u{07} and <tag> & \"quote\""
        let xml = JUnitReport().render([result])
        #expect(!xml.contains("\u{07}"))
        #expect(xml.contains("message: bell\u{FFFD} and &lt;tag&gt; &amp; \"quote\""))
    }
}
