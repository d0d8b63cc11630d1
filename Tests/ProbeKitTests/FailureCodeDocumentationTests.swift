import Foundation
import ProbeKit
import Testing

/// `docs/probe-json.md` lists every failure code, once, and nothing else: a new `FailureCode`
/// case fails this test until its row is written.
@Suite struct FailureCodeDocumentationTests {
    @Test func theFailureCodeTableListsExactlyTheCodes() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/probe-json.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Failure codes (`reason`)").dropFirst().first)
        let table = section.components(separatedBy: "\n\n").first { $0.contains("| --- |") } ?? ""
        // The header row names the column, `reason`; the rows after it name the codes.
        let codes = table.split(separator: "\n").dropFirst(2).compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).prefix { $0 != "`" }.description
        }
        #expect(codes.sorted() == FailureCode.allCases.map(\.rawValue).sorted())
        #expect(Set(codes).count == codes.count, "a code is listed twice")
        for code in FailureCode.allCases {
            #expect(!code.words.isEmpty, "\(code) has no words")
        }
    }
}
