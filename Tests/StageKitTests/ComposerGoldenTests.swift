import DockerfileSyntax
import Foundation
import StageKit
import Testing

/// Composes every fixture case and compares the result with the recorded file of the case
/// (`Fixtures/README.md` describes the layout; `RECORD_GOLDEN=1` re-records).
@Suite struct ComposerGoldenTests {
    @Test func everyGroupHasCases() {
        #expect(FixtureCase.all("composed").count >= 5)
        #expect(FixtureCase.all("rejected").count >= 15)
    }

    @Test(arguments: FixtureCase.all("composed"))
    func composesCaseToRecordedDockerfile(_ fixture: FixtureCase) throws {
        let output = try fixture.compose()
        try fixture.expectGolden("Dockerfile", equals: output)
    }

    @Test(arguments: FixtureCase.all("rejected"))
    func rejectsCaseWithRecordedMessage(_ fixture: FixtureCase) throws {
        do {
            let output = try fixture.compose()
            Issue.record("composed although it should fail:\n\(output)")
        } catch {
            try fixture.expectGolden("expected-error.txt", equals: error.description + "\n")
        }
    }

    /// The output read back by the parser holds exactly the instructions of its blocks, each
    /// read on its own: nothing in one block (a dangling line continuation, an open quote)
    /// joins it to the next. Each template block holds the template's own instructions in
    /// their order, heredoc bodies byte for byte, each parameter's `ARG` where the template
    /// declares it.
    @Test(arguments: FixtureCase.all("composed"))
    func composedBlocksParseBackToTheirTemplatesInstructions(_ fixture: FixtureCase) throws {
        let output = try fixture.compose()
        let whole = try DockerfileParser.parse(output)
        let escapeDirective = whole.directives.escapeCharacter == .backtick ? "# escape=`\n" : ""
        var instructionsInBlocks = 0
        for block in Self.blocks(of: output) {
            guard let tree = try? DockerfileParser.parse(escapeDirective + block) else { continue }
            instructionsInBlocks += tree.instructions.count
            guard let provenance = Self.provenance(of: block) else { continue }
            let template = try DockerfileParser.parse(try fixture.text(provenance.path))
            #expect(
                Self.steps(of: tree) == Self.steps(of: template),
                "block of \(provenance.name) does not hold the template's instructions as written")
        }
        #expect(whole.instructions.count == instructionsInBlocks)
    }

    /// Splits composed text before each line that starts a labelled block (`# [`).
    static func blocks(of text: String) -> [String] {
        var blocks: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# [") && !current.isEmpty {
                blocks.append(current)
                current = ""
            }
            current += line + "\n"
        }
        blocks.append(current)
        return blocks
    }

    /// The template a block comes from: `# [name] stage template path…`.
    static func provenance(of block: String) -> (name: String, path: String)? {
        guard block.hasPrefix("# ["), let close = block.firstIndex(of: "]") else { return nil }
        let name = String(block[block.index(block.startIndex, offsetBy: 3)..<close])
        let rest = block[close...].dropFirst().prefix { $0 != "\n" }
        guard rest.hasPrefix(" stage template ") else { return nil }
        let path = rest.dropFirst(" stage template ".count).prefix { $0 != " " }
        return (name, String(path))
    }

    /// Instructions other than `FROM` with their heredoc bodies as written; an `ARG` as the
    /// names it declares, since composing replaces its defaults.
    static func steps(of tree: DockerfileSyntaxTree) -> [String] {
        tree.instructions.filter { $0.knownKeyword != .from }.map { instruction in
            if instruction.knownKeyword == .arg {
                return "ARG " + instruction.arguments.map { String($0.prefix { $0 != "=" }) }.joined(separator: " ")
            }
            return ([instruction.logicalLine] + instruction.heredocs.map(\.content)).joined(separator: "\u{1}")
        }
    }
}
