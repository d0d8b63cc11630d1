import StageKit
import Testing

@testable import StagebuildCLI

/// The CI formats of `stagebuild lint`, checked by eye.
@Suite struct LintReportFormatsTests {
    static let findings: [(file: String, findings: [LintFinding])] = [
        (
            "a,b:Dockerfile",
            [
                LintFinding(
                    ruleID: "SB003", severity: .warning, message: "apt-get install 100% <unpinned>\nnext", hint: "pin it",
                    line: 3, column: 7)
            ]
        ),
        ("clean.Dockerfile", []),
    ]

    @Test func githubWorkflowCommandsEscapeAsGitHubRequires() {
        #expect(
            LintReportFormats.github(Self.findings)
                == "::warning file=a%2Cb%3ADockerfile,line=3,col=7,title=SB003::apt-get install 100%25 <unpinned>%0Anext (hint: pin it)\n"
        )
    }

    @Test func checkstyleListsEveryFileAndEscapesXML() {
        #expect(
            LintReportFormats.checkstyle(Self.findings) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <checkstyle version="4.3">
                  <file name="a,b:Dockerfile">
                    <error line="3" column="7" severity="warning" message="apt-get install 100% &lt;unpinned&gt;&#10;next (hint: pin it)" source="SB003"/>
                  </file>
                  <file name="clean.Dockerfile">
                  </file>
                </checkstyle>

                """)
    }
}
