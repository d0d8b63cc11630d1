import StageKit
import Testing

/// `# stagebuild ignore=SBnnn[,SBmmm] reason` on the comment lines directly above an
/// instruction switches those rules off for that instruction only.
@Suite struct LintPragmaTests {
    private func ruleIDs(_ text: String) throws -> [String] {
        try Linter().lint(text: text).map(\.ruleID)
    }

    @Test func pragmaSilencesTheNamedRuleForTheNextInstructionOnly() throws {
        let text = """
            # stagebuild ignore=SB013 the shell expands $PORT
            CMD node server.js --port $PORT
            CMD node server.js

            """
        let findings = try Linter().lint(text: text)
        #expect(findings.map(\.ruleID) == ["SB013"])
        #expect(findings.first?.line == 3)
    }

    @Test func pragmaNamesSeveralRulesAndLeavesOthersOn() throws {
        let text = """
            # stagebuild ignore=SB001,SB012 base image; the service template sets USER
            FROM debian
            """
        #expect(try ruleIDs(text) == ["SB002"])
    }

    @Test func pragmaAnywhereInTheCommentBlockDirectlyAboveCounts() throws {
        let text = """
            FROM debian:bookworm-slim@sha256:78b011a54a92e3ae847c3348dcbedb9575a3ea3bb91e7bd9b3b7a80e797c99cb
            USER app
            # stagebuild ignore=SB009 the vendor publishes no checksum
            # hadolint ignore=DL4006
            # Installs the vendor's agent.
            RUN curl -fsSL https://get.example.com/agent.sh | sh

            """
        #expect(try ruleIDs(text).isEmpty)
    }

    @Test func blankLineOrInstructionBetweenPragmaAndInstructionBreaksIt() throws {
        let blank = "# stagebuild ignore=SB013\n\nCMD node server.js\n"
        #expect(try ruleIDs(blank) == ["SB013"])
        let between = "# stagebuild ignore=SB013\nENV PORT=3000\nCMD node server.js\n"
        #expect(try ruleIDs(between) == ["SB013"])
    }

    @Test func pragmaCoversFindingsOnContinuationAndHeredocLines() throws {
        let text = """
            # stagebuild ignore=SB003,SB004 a throwaway debug stage
            RUN apt-get update \\
                && apt-get install -y --no-install-recommends \\
                    gdb
            # stagebuild ignore=SB011 any commit of the demo will do
            RUN <<EOF
            set -eux
            git clone https://github.com/example/demo.git /demo
            EOF

            """
        #expect(try ruleIDs(text).isEmpty)
    }

    @Test func pragmaForAnotherRuleOrMalformedPragmaSilencesNothing() throws {
        for pragma in [
            "# stagebuild ignore=SB001", "# stagebuild ignore=SB13", "# stagebuild ignore SB013",
            "# hadolint ignore=DL3025", "# stagebuild ignore=sb013", "# stagebuild ignore=",
        ] {
            #expect(try ruleIDs("\(pragma)\nCMD node server.js\n") == ["SB013"], "\(pragma)")
        }
    }

    @Test func pragmaParsing() {
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001") == ["SB001"])
        #expect(
            LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock") == [
                "SB001", "SB012",
            ])
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild\tignore=SB014\treason") == ["SB014"])
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001,DL3008").isEmpty)
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild: ignore=SB001").isEmpty)
        #expect(LintPragma.ignoredRuleIDs(in: "summary: stagebuild ignore=SB001").isEmpty)
    }
}
