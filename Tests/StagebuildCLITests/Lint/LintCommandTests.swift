import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild lint FILE...`: the text and JSON output, the failure threshold, and the exit
/// statuses for findings (1), files BuildKit rejects (65), unreadable files (74) and usage (64).
@Suite struct LintCommandTests {
    /// A temporary folder with files to lint, removed when the test drops it.
    private final class LintFolder {
        let scratch: Scratch
        var path: String { scratch.path }

        init(_ files: [String: String]) throws {
            scratch = try Scratch(prefix: "stagebuild-lint")
            for (name, text) in files {
                try scratch.write(text, to: name)
            }
        }

        func run(_ arguments: [String]) -> (status: ExitCode, stdout: String, stderr: String) {
            let output = CapturingSink()
            let errors = CapturingSink()
            let context = CommandContext(
                environment: [:], currentDirectory: path, executablePath: "/nonexistent/bin/stagebuild",
                standardOutput: output, standardError: errors)
            let status = StagebuildCommand.run(["lint"] + arguments, context: context)
            return (status, output.text, errors.text)
        }
    }

    private static let shellForm =
        "FROM debian:bookworm-slim@sha256:\(String(repeating: "ab", count: 32))\nUSER app\nCMD node server.js\n"
    private static let infoOnly = "RUN apt-get update && apt-get install -y curl=7.88.1-10+deb12u5\n"
    private static let clean = "FROM scratch\nCOPY app /app\nUSER 10001\nENTRYPOINT [\"/app\"]\n"

    @Test func textOutputIsFileLineColumnSeverityRuleMessageThenAnIndentedHint() throws {
        let folder = try LintFolder(["Dockerfile": Self.shellForm])
        let result = folder.run(["Dockerfile"])
        #expect(result.status == .checkFailed)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                Dockerfile:3:5: warning: SB013 CMD in shell form runs under /bin/sh -c, which does not pass signals on
                    hint: write it in exec form, e.g. CMD ["node", "server.js"]; use an entrypoint script that ends in exec "$@" when a shell is needed

                """)
    }

    @Test func jsonOutputIsOneArrayWithTheDocumentedFields() throws {
        let folder = try LintFolder(["a.Dockerfile": Self.shellForm, "b.Dockerfile": "ARG NPM_TOKEN\n"])
        let result = folder.run(["b.Dockerfile", "--format", "json", "a.Dockerfile"])
        #expect(result.status == .checkFailed)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        for object in array {
            #expect(Set(object.keys) == ["file", "line", "column", "rule", "severity", "message", "hint"])
        }
        #expect(array.map { $0["file"] as? String } == ["b.Dockerfile", "a.Dockerfile"])
        #expect(array.map { $0["rule"] as? String } == ["SB014", "SB013"])
        #expect(array.map { $0["severity"] as? String } == ["warning", "warning"])
        #expect(array.map { $0["line"] as? Int } == [1, 3])
        #expect(array.map { $0["column"] as? Int } == [5, 5])
        #expect(result.stdout.hasSuffix("}\n]\n"))
    }

    @Test func cleanFilesPrintNothingOrAnEmptyJSONArray() throws {
        let folder = try LintFolder(["Dockerfile": Self.clean])
        let text = folder.run(["Dockerfile"])
        #expect(text.status == .success)
        #expect(text.stdout.isEmpty && text.stderr.isEmpty)
        let json = folder.run(["--format=json", "Dockerfile"])
        #expect(json.status == .success)
        #expect(json.stdout == "[]\n")
    }

    @Test func failureThresholdDecidesWhichSeveritiesFail() throws {
        let folder = try LintFolder(["warning.Dockerfile": Self.shellForm, "info.Dockerfile": Self.infoOnly])
        #expect(folder.run(["info.Dockerfile"]).status == .success)
        #expect(folder.run(["info.Dockerfile", "--failure-threshold", "info"]).status == .checkFailed)
        #expect(folder.run(["info.Dockerfile", "--failure-threshold", "style"]).status == .checkFailed)
        #expect(folder.run(["warning.Dockerfile", "--failure-threshold", "error"]).status == .success)
        #expect(folder.run(["warning.Dockerfile", "--failure-threshold=warning"]).status == .checkFailed)
        let none = folder.run(["warning.Dockerfile", "info.Dockerfile", "--failure-threshold", "none"])
        #expect(none.status == .success)
        #expect(none.stdout.contains("warning.Dockerfile:3:5: warning: SB013 "))
        #expect(none.stdout.contains("info.Dockerfile:1:"))
    }

    @Test func fileBuildKitRejectsIsADiagnosticWithPositionAndExit65() throws {
        let folder = try LintFolder([
            "bad.Dockerfile": "FROM debian:bookworm-slim\nRUN <<EOF\necho never ends\n", "good.Dockerfile": Self.clean,
        ])
        let result = folder.run(["bad.Dockerfile", "good.Dockerfile"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "bad.Dockerfile:2:1: error: unterminated heredoc\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func unreadableFileIsAnIOErrorAndTheOthersAreStillLinted() throws {
        let folder = try LintFolder(["Dockerfile": Self.shellForm])
        let result = folder.run(["missing.Dockerfile", "Dockerfile"])
        #expect(result.status == .ioError)
        #expect(result.stderr == "error: cannot read missing.Dockerfile: No such file or directory\n")
        #expect(result.stdout.hasPrefix("Dockerfile:3:5: warning: SB013 "))
    }

    /// Bytes that are not UTF-8 are bad input data (65, as compose says), reported at the
    /// line and column of the first bad byte, with its byte offset; the other files are linted.
    @Test func nonUTF8FileIsBadDataWithThePositionOfTheFirstBadByte() throws {
        let folder = try LintFolder(["Dockerfile": Self.shellForm])
        let bad = Data("FROM scratch\nUSER app\nRUN echo caf".utf8) + Data([0xE9, 0x20, 0x21, 0x0A])
        try bad.write(to: URL(fileURLWithPath: folder.path + "/latin1.Dockerfile"))
        let result = folder.run(["latin1.Dockerfile", "Dockerfile"])
        #expect(result.status == .dataError)
        #expect(
            result.stderr == "latin1.Dockerfile:3:13: error: not valid UTF-8 text: invalid byte 0xE9 at byte offset 34\n")
        #expect(result.stdout.hasPrefix("Dockerfile:3:5: warning: SB013 "))
    }

    @Test func truncatedSequenceAtTheEndIsReportedWhereItStarts() throws {
        let folder = try LintFolder([:])
        try Data([0x46, 0x52, 0x4F, 0x4D, 0x20, 0xE2, 0x82]).write(to: URL(fileURLWithPath: folder.path + "/cut.Dockerfile"))
        let result = folder.run(["cut.Dockerfile"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "cut.Dockerfile:1:6: error: not valid UTF-8 text: invalid byte 0xE2 at byte offset 5\n")
    }

    @Test func directoryIsNamedAsOneAndIsAnIOError() throws {
        let folder = try LintFolder(["Dockerfile": Self.clean])
        try FileManager.default.createDirectory(atPath: folder.path + "/stages", withIntermediateDirectories: true)
        let result = folder.run(["stages", "Dockerfile"])
        #expect(result.status == .ioError)
        #expect(result.stderr == "error: cannot read stages: is a directory\n")
    }

    /// The reason is the system's own (strerror), whatever it is.
    @Test func unreadableFileCarriesTheSystemsReason() throws {
        let folder = try LintFolder(["Dockerfile": Self.clean])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/loop", withDestinationPath: "loop")
        let notDirectory = folder.run(["Dockerfile/Stagefile"])
        #expect(notDirectory.status == .ioError)
        #expect(notDirectory.stderr == "error: cannot read Dockerfile/Stagefile: Not a directory\n")
        let loop = folder.run(["loop"])
        #expect(loop.status == .ioError)
        #expect(loop.stderr == "error: cannot read loop: Too many levels of symbolic links\n")
    }

    @Test(arguments: [
        ([], "expected at least one FILE to lint"),
        (
            ["Dockerfile", "--format", "yaml"],
            "--format must be text, json, sarif, github, checkstyle or gitlab, not 'yaml'"
        ),
        (
            ["Dockerfile", "--failure-threshold", "fatal"],
            "--failure-threshold must be error, warning, info, style or none, not 'fatal'"
        ),
        (["Dockerfile", "--strict"], "unknown option '--strict'"),
    ])
    func usageErrorsExit64WithTheUsageLine(_ arguments: [String], _ message: String) throws {
        let folder = try LintFolder(["Dockerfile": Self.clean])
        let result = folder.run(arguments)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: \(message)"))
        #expect(
            result.stderr.hasSuffix(
                "USAGE: stagebuild lint FILE... [--format text|json|sarif|github|checkstyle|gitlab] [--failure-threshold SEVERITY] [--config FILE]\nSee 'stagebuild lint --help'.\n"
            ))
    }

    @Test func helpListsTheOptionsAndEveryRule() throws {
        let folder = try LintFolder([:])
        let result = folder.run(["--help"])
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: Report reproducibility and safety findings"))
        #expect(result.stdout.contains("  --failure-threshold SEVERITY"))
        #expect(result.stdout.contains("  --format FORMAT"))
        #expect(result.stdout.contains("  --config FILE"))
        #expect(result.stdout.contains("# stagebuild ignore=SBnnn[,SBmmm] REASON"))
        for id in (1...35).map({ String(format: "SB%03d", $0) }) {
            #expect(result.stdout.contains("  \(id)  "), "\(id) missing from --help")
        }
        // The list is generated from the rules: the severities are the rules' own.
        #expect(result.stdout.contains("  SB014  warning  An ARG or ENV name looks like a secret"))
        #expect(result.stdout.contains("  SB015  error    Two build stages have the same name"))
        #expect(result.stdout.contains("  SB016  warning  An ignore pragma is malformed"))
        #expect(result.stdout.contains("65 a file that\nBuildKit's parser rejects or that is not UTF-8 text"))
        #expect(result.stdout.contains("  SB034  error    A file to lint could not be read."))
    }

    @Test func overviewListsLint() {
        let output = CapturingSink()
        let context = CommandContext(
            environment: [:], currentDirectory: "/", executablePath: "/nonexistent/bin/stagebuild",
            standardOutput: output, standardError: CapturingSink())
        #expect(StagebuildCommand.run(["--help"], context: context) == .success)
        #expect(output.text.contains("\n  lint        Report reproducibility and safety findings"))
    }

    @Test func stagefileAndLayerTemplateAreLintedWithoutConfusion() throws {
        let folder = try LintFolder([
            "Stagefile":
                "FROM stage:debian AS app\nUSE node-service APP_PORT=3000\nLABEL org.opencontainers.image.title=\"app\"\n",
            "tools.Dockerfile":
                "# summary: tools\nARG TOOLS_VERSION=1\nCOPY --from=build /out/tool /usr/local/bin/tool\nRUN tool --version\n",
        ])
        let result = folder.run(["Stagefile", "tools.Dockerfile"])
        #expect(result.status == .success)
        #expect(result.stdout.isEmpty)
    }
}
