import Foundation
import StageKit
import Testing

/// The shipped catalog and the composed example are lint-clean, or carry a pragma with a reason.
@Suite struct ShippedCatalogLintTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let templates: [String] = {
        let folder = root.appendingPathComponent("Stages")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".Dockerfile") }.sorted()
    }()

    private func lint(_ relativePath: String) throws -> [LintFinding] {
        let text = try String(contentsOf: Self.root.appendingPathComponent(relativePath), encoding: .utf8)
        return try Linter().lint(text: text)
    }

    @Test func catalogIsNotEmpty() {
        #expect(Self.templates.count >= 6)
    }

    @Test(arguments: templates)
    func shippedTemplateIsLintClean(_ name: String) throws {
        let findings = try lint("Stages/\(name)")
        #expect(findings.isEmpty, "\(name): \(findings)")
    }

    @Test func exampleStagefileIsLintClean() throws {
        #expect(try lint("examples/node-nginx/Stagefile").isEmpty)
    }

    /// Compose carries the pragmas above a base template's FROM into its output, so the
    /// composed example is clean too.
    @Test func composedExampleIsLintClean() throws {
        #expect(try lint("examples/node-nginx/Dockerfile").isEmpty)
    }
}
