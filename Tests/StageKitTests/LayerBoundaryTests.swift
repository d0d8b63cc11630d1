import Foundation
import Testing

/// ARCHITECTURE's boundary, kept true: StageKit reads Dockerfile text only through
/// DockerfileSyntax's tree and typed views (and its word readings, `EscapeCharacter.unquoted`
/// and `expanded`), never with the syntax layer's lexers and splitters of its own. The one
/// exception reads no Dockerfile text: an `# apt-archive:` line's value.
@Suite struct LayerBoundaryTests {
    @Test func stageKitCallsNoLexerOrSplitter() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/StageKit")
        let files = try #require(FileManager.default.subpaths(atPath: root.path)).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "\(root.path)")
        let forbidden = ["ShellWordLexer(", "WordSplitter.", "ArgumentSplitter", "unterminatedQuoteOffset"]
        let allowed: Set<String> = ["Apt/AptArchiveDeclaration.swift"]
        for file in files where !allowed.contains(file) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for word in forbidden where text.contains(word) {
                Issue.record("Sources/StageKit/\(file) calls \(word): read it from a typed view of DockerfileSyntax")
            }
        }
    }
}
