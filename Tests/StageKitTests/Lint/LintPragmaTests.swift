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
            # stagebuild ignore=SB009,SB027 the vendor publishes no checksum
            # hadolint ignore=DL4006
            # Installs the vendor's agent.
            RUN curl -fsSL https://get.example.com/agent.sh | sh

            """
        #expect(try ruleIDs(text).isEmpty)
    }

    @Test func blankLineOrInstructionBetweenPragmaAndInstructionBreaksIt() throws {
        // A blank line leaves the pragma applying to nothing, which SB016 reports.
        let blank = "# stagebuild ignore=SB013 the shell expands $PORT\n\nCMD node server.js\n"
        let findings = try Linter().lint(text: blank)
        #expect(findings.map(\.ruleID) == ["SB016", "SB013"])
        #expect(findings.first?.message == "pragma applies to no instruction: a blank line or the end of the file follows it")
        #expect(findings.first.map { "\($0.line):\($0.column)" } == "1:3")
        // An instruction between: the pragma applies to it, not to the CMD.
        let between = "# stagebuild ignore=SB013 the shell expands $PORT\nENV PORT=3000\nCMD node server.js\n"
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

    @Test func pragmaForAnotherRuleSilencesNothing() throws {
        for pragma in ["# stagebuild ignore=SB001 base image", "# hadolint ignore=DL3025"] {
            #expect(try ruleIDs("\(pragma)\nCMD node server.js\n") == ["SB013"], "\(pragma)")
        }
    }

    /// The forms a user wrote that used to do nothing without a word: each is now either
    /// read as meant or reported by SB016 at the pragma's line and column, never silent.
    @Test(arguments: [
        // Accepted: any case, spaces around `=` and after commas.
        ("# stagebuild ignore=sb013 the shell expands $PORT", [], []),
        ("# stagebuild ignore = SB013 the shell expands $PORT", [], []),
        ("# STAGEBUILD Ignore= SB013 the shell expands $PORT", [], []),
        ("# stagebuild ignore=SB003, SB013 the shell expands $PORT", [], []),
        ("# stagebuild ignore=SB003 ,SB013 the shell expands $PORT", [], []),
        // Applied, and the problem reported.
        ("# stagebuild ignore=SB013", ["1:3 pragma gives no reason; write why after the rule ids"], []),
        ("# stagebuild ignore=SB013,SB999 reason", ["1:27 SB999 is not a stagebuild rule"], []),
        ("# stagebuild ignore=SB013,DL3025 reason", ["1:27 'DL3025' is not a rule id (SB and three digits)"], []),
        // The second id was read as the reason: SB013 is not applied, and that is reported.
        (
            "# stagebuild ignore=SB003 SB013 reason",
            ["1:27 'SB013' after the rule ids is read as the reason; separate rule ids with commas"], ["SB013"]
        ),
        // Malformed: nothing applied, the problem reported.
        ("# stagebuild ignore SB013 reason", ["1:14 malformed pragma: 'ignore' is not followed by '='"], ["SB013"]),
        ("# stagebuild ignore=", ["1:14 malformed pragma: it names no rule id"], ["SB013"]),
        ("# stagebuild ignore=SB013,", ["1:26 malformed pragma: a comma is followed by no rule id"], ["SB013"]),
        // After a comma, the next word is an id: a reason there is reported twice over.
        (
            "# stagebuild ignore=SB013, because",
            ["1:3 pragma gives no reason", "1:28 'because' is not a rule id"], []
        ),
        (
            "# stagebuild: ignore=SB013 reason",
            ["1:3 malformed pragma: 'stagebuild' and 'ignore' must be separated by spaces only"], ["SB013"]
        ),
    ])
    func pragmaFormIsReadOrReported(_ pragma: String, _ problems: [String], _ remaining: [String]) throws {
        let findings = try Linter().lint(text: "\(pragma)\nCMD node server.js\n")
        let reported = findings.filter { $0.ruleID == "SB016" }.map { "\($0.line):\($0.column) \($0.message)" }
        #expect(reported.count == problems.count, "\(pragma): \(reported)")
        for (finding, problem) in zip(reported, problems) {
            #expect(finding.hasPrefix(problem), "\(pragma): \(finding)")
        }
        #expect(findings.filter { $0.ruleID != "SB016" }.map(\.ruleID) == remaining, "\(pragma)")
    }

    @Test func pragmaParsing() {
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001") == ["SB001"])
        #expect(
            LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock") == [
                "SB001", "SB012",
            ])
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild\tignore=SB014\treason") == ["SB014"])
        #expect(LintPragma.ignoredRuleIDs(in: "Stagebuild ignore = sb001 , sb002 reason") == ["SB001", "SB002"])
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild ignore=SB001,DL3008") == ["SB001"])
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild: ignore=SB001").isEmpty)
        #expect(LintPragma.ignoredRuleIDs(in: "summary: stagebuild ignore=SB001").isEmpty)
        #expect(LintPragma.ignoredRuleIDs(in: "stagebuild composes this file").isEmpty)
        #expect(LintPragma.parse("# stagebuild composes this file", knownRuleIDs: []) == nil)
        #expect(LintPragma.parse("# stagebuild ignored nothing", knownRuleIDs: []) == nil)
        let pragma = LintPragma.parse(
            "  # stagebuild ignore=SB003, SB005 pinned by snapshot\r\n", knownRuleIDs: ["SB003", "SB005"])
        #expect(pragma?.ruleIDs == ["SB003", "SB005"])
        #expect(pragma?.reason == "pinned by snapshot")
        #expect(pragma?.column == 5)
        #expect(pragma?.problems == [])
    }

    @Test func invalidPragmaFindingsCannotBeSwitchedOff() throws {
        let text = "# stagebuild ignore=SB016 hiding the next one\n# stagebuild ignore=SB999\nCMD [\"node\"]\n"
        #expect(try ruleIDs(text) == ["SB016", "SB016"])
    }
}
