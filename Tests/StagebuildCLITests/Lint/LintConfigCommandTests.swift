import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild lint` with project configs: each file's nearest `.stagebuild.yaml` up to the
/// repository root, `--config` for all, the command line's threshold over the config's, config
/// errors at `file:line:column`, and files that cannot be linted in the machine formats.
@Suite struct LintConfigCommandTests {
    /// A temporary repository: files at relative paths (folders made as needed).
    private final class Project {
        let scratch: Scratch
        var path: String { scratch.path }

        init(_ files: [String: String]) throws {
            scratch = try Scratch(prefix: "stagebuild-lintconfig")
            for (name, text) in files {
                try scratch.write(text, to: name)
            }
        }

        func run(_ arguments: [String], in folder: String = "") -> (status: ExitCode, stdout: String, stderr: String) {
            let output = CapturingSink()
            let errors = CapturingSink()
            let context = CommandContext(
                environment: [:], currentDirectory: folder.isEmpty ? path : path + "/" + folder,
                executablePath: "/nonexistent/bin/stagebuild", standardOutput: output, standardError: errors)
            let status = StagebuildCommand.run(["lint"] + arguments, context: context)
            return (status, output.text, errors.text)
        }
    }

    /// SB002 (warning) at 1:6 and SB013 (warning) at 3:5, nothing else.
    private static let shellFormOnUntagged =
        "FROM debian:latest@sha256:\(String(repeating: "ab", count: 32))\nUSER app\nCMD node server.js\n"

    private static func rules(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { line in
            let parts = line.split(separator: " ")
            return "\(parts[0].split(separator: ":")[0]) \(parts[2])"
        }
    }

    @Test func eachFileUsesItsNearestConfigUpToTheRepositoryRoot() throws {
        let project = try Project([
            ".stagebuild.yaml": "ignored: [SB002, SB013]\n",
            "repo/.git/HEAD": "ref: refs/heads/main\n",
            "repo/.stagebuild.yaml": "ignored: [SB013]\n",
            "repo/web/Dockerfile": Self.shellFormOnUntagged,
            "repo/api/.stagebuild.yml": "ignored: [SB002]\n",
            "repo/api/Dockerfile": Self.shellFormOnUntagged,
            "repo/api/deep/Dockerfile": Self.shellFormOnUntagged,
        ])
        let result = project.run(["web/Dockerfile", "api/Dockerfile", "api/deep/Dockerfile"], in: "repo")
        #expect(result.status == .checkFailed)
        #expect(
            Self.rules(result.stdout) == ["web/Dockerfile SB002", "api/Dockerfile SB013", "api/deep/Dockerfile SB013"])

        // Without a repository, the search goes on to the folders above.
        let outside = try Project([".stagebuild.yaml": "ignored: [SB002, SB013]\n", "app/Dockerfile": Self.shellFormOnUntagged])
        let clean = outside.run(["app/Dockerfile"])
        #expect(clean.status == .success)
        #expect(clean.stdout.isEmpty)
    }

    @Test func aConfigAboveTheRepositoryRootIsNotUsed() throws {
        let project = try Project([
            ".stagebuild.yaml": "ignored: [SB002, SB013]\n",
            "repo/.git": "gitdir: ../elsewhere\n",
            "repo/Dockerfile": Self.shellFormOnUntagged,
        ])
        let result = project.run(["repo/Dockerfile"])
        #expect(Self.rules(result.stdout) == ["repo/Dockerfile SB002", "repo/Dockerfile SB013"])
    }

    @Test func configFlagHoldsForEveryFileAndTheCommandLineThresholdWins() throws {
        let project = try Project([
            "policy.yaml": "failure-threshold: error\noverride:\n  info: [SB013]\n",
            "a/.stagebuild.yaml": "ignored: [SB002]\n",
            "a/Dockerfile": Self.shellFormOnUntagged,
        ])
        let byConfig = project.run(["a/Dockerfile", "--config", "policy.yaml"])
        #expect(byConfig.status == .success, "warnings do not reach the config's threshold error")
        #expect(byConfig.stdout.contains("a/Dockerfile:3:5: info: SB013 "))
        #expect(byConfig.stdout.contains("a/Dockerfile:1:6: warning: SB002 "), "a/.stagebuild.yaml is not read")
        let strict = project.run(["a/Dockerfile", "--config", "policy.yaml", "--failure-threshold", "warning"])
        #expect(strict.status == .checkFailed)
    }

    @Test func enforcedRulesStayOnAndTheAttemptIsReported() throws {
        let project = try Project([
            ".stagebuild.yaml": "enforced: [SB013]\n",
            "Dockerfile": "FROM debian:12\n# stagebuild ignore=SB013 we trap signals ourselves\nCMD node server.js\n",
        ])
        let result = project.run(["Dockerfile"])
        #expect(result.status == .checkFailed)
        #expect(
            result.stdout.contains(
                "Dockerfile:2:3: warning: SB016 SB013 is enforced by .stagebuild.yaml: no pragma switches it off"))
        #expect(result.stdout.contains("Dockerfile:3:5: warning: SB013 "))
    }

    @Test func trustedRegistriesTurnOnSB033() throws {
        let project = try Project([
            ".stagebuild.yaml": "trustedRegistries:\n  - docker.io\n  - \"*.corp.example\"\n",
            "Dockerfile":
                "FROM registry.corp.example/base:1 AS base\nFROM quay.io/team/tool:2 AS tool\nFROM debian:12\nCOPY --from=tool /t /t\n",
        ])
        let result = project.run(["Dockerfile", "--format", "json"])
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let untrusted = findings.filter { $0["rule"] as? String == "SB033" }
        #expect(untrusted.map { "\($0["line"]!):\($0["column"]!)" } == ["2:6"])
        #expect((untrusted.first?["message"] as? String)?.contains("quay.io") == true)
    }

    @Test(arguments: [
        (
            "ignored: [SB013]\nno-fail: true\n",
            ".stagebuild.yaml:2:1: error: no-fail in the top level of a lint config is not supported: use failure-threshold: none"
        ),
        ("ignored: [SB999]\n", ".stagebuild.yaml:1:11: error: SB999 in ignored is not a stagebuild rule"),
        ("ignored:\n  - DL3008\n", ".stagebuild.yaml:2:5: error: 'DL3008' in ignored is not a rule id (SB and three digits)"),
        ("colour: never\n", ".stagebuild.yaml:1:1: error: unknown key 'colour' in the top level of a lint config"),
        ("override:\n  fatal: [SB001]\n", ".stagebuild.yaml:2:3: error: unknown severity 'fatal' in override"),
        ("failure-threshold: fatal\n", ".stagebuild.yaml:1:20: error: failure-threshold must be one of"),
        ("ignored: [SB001]\nenforced: [SB001]\n", ".stagebuild.yaml:2:12: error: SB001 is both ignored and enforced"),
        ("trustedRegistries: [\"https://quay.io\"]\n", ".stagebuild.yaml:1:21: error: 'https://quay.io' is not a registry"),
        ("ignored: [SB001\n", ".stagebuild.yaml:"),
    ])
    func configErrorsAreDataErrorsAtTheirPosition(_ config: String, _ expected: String) throws {
        let project = try Project([".stagebuild.yaml": config, "Dockerfile": "FROM scratch\n"])
        let result = project.run(["Dockerfile"])
        #expect(result.status == .dataError)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(expected), "stderr: \(result.stderr)")
    }

    @Test func missingConfigFlagFileIsAnIOError() throws {
        let project = try Project(["Dockerfile": "FROM scratch\n"])
        let result = project.run(["Dockerfile", "--config", "nope.yaml"])
        #expect(result.status == .ioError)
        #expect(result.stderr == "error: cannot read --config nope.yaml: No such file or directory\n")
    }

    @Test func globalPragmaSwitchesARuleOffForTheWholeFile() throws {
        let project = try Project([
            "Dockerfile":
                "# stagebuild global ignore=SB013 the shell expands $PORT\nFROM scratch\nUSER 10001\nCMD node a.js\nCMD node b.js\n"
        ])
        let result = project.run(["Dockerfile"])
        #expect(result.status == .success)
        #expect(result.stdout.isEmpty)
    }

    /// The machine formats never show an empty report for a file that was not linted.
    @Test(arguments: ["json", "sarif", "github", "checkstyle", "gitlab"])
    func unreadableAndUnparsableFilesAreFindingsInEveryMachineFormat(_ format: String) throws {
        let project = try Project(["bad.Dockerfile": "FROM scratch\nRUN <<EOF\necho\n"])
        let result = project.run(["missing.Dockerfile", "bad.Dockerfile", "--format", format])
        #expect(result.status == .ioError)
        #expect(result.stdout.contains("SB034"), "\(format): \(result.stdout)")
        #expect(result.stdout.contains("SB035"), "\(format): \(result.stdout)")
        #expect(result.stdout.contains("missing.Dockerfile") && result.stdout.contains("bad.Dockerfile"))
        #expect(result.stderr.contains("error: cannot read missing.Dockerfile: No such file or directory\n"))
        #expect(result.stderr.contains("bad.Dockerfile:2:1: error: unterminated heredoc\n"))
    }

    @Test func sarifNamesEveryRuleAndPointsEachResultAtItsRule() throws {
        let project = try Project(["dir with space/Dockerfile": Self.shellFormOnUntagged])
        let result = project.run(["dir with space/Dockerfile", "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == 42)  // SB001 to SB042
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            #expect(result["level"] as? String == "warning")
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            #expect(artifact["uri"] as? String == "dir%20with%20space/Dockerfile")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        }
    }

    @Test func gitlabIssuesHaveUniqueStableFingerprints() throws {
        let project = try Project(["Dockerfile": Self.shellFormOnUntagged])
        let first = project.run(["Dockerfile", "--format", "gitlab"])
        let again = project.run(["Dockerfile", "--format", "gitlab"])
        #expect(first.stdout == again.stdout)
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [[String: Any]])
        #expect(issues.map { $0["check_name"] as? String } == ["SB002", "SB013"])
        #expect(issues.map { $0["severity"] as? String } == ["major", "major"])
        #expect(Set(issues.compactMap { $0["fingerprint"] as? String }).count == 2)
        let location = try #require(issues.last?["location"] as? [String: Any])
        #expect(location["path"] as? String == "Dockerfile")
        #expect((location["lines"] as? [String: Any])?["begin"] as? Int == 3)
    }

    @Test func aDanglingConfigIsAConfigThatCannotBeReadNotNoConfig() throws {
        let project = try Project([".stagebuild.yaml": "failure-threshold: none\n", "x/Dockerfile": Self.shellFormOnUntagged])
        try FileManager.default.createSymbolicLink(
            atPath: project.path + "/x/.stagebuild.yaml", withDestinationPath: "/nonexistent")
        let result = project.run(["x/Dockerfile"])
        #expect(result.status == .ioError)
        #expect(result.stderr.hasPrefix("error: cannot read x/.stagebuild.yaml: "), "\(result.stderr)")
    }

    @Test func aConfigThatIsNotUTF8IsBadData() throws {
        let project = try Project(["Dockerfile": "FROM scratch\n"])
        try Data("ignored: [SB001] # ".utf8 + [0xFF, 0x0A]).write(to: URL(fileURLWithPath: project.path + "/.stagebuild.yaml"))
        let result = project.run(["Dockerfile"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("cannot read .stagebuild.yaml: not valid UTF-8 text"), "\(result.stderr)")
    }

    /// A bad config leaves the files it governs unlinted, and a machine report says so for each.
    @Test func aBadConfigIsAFindingOfEachFileItGovernsInMachineFormats() throws {
        let project = try Project([
            "bad/.stagebuild.yaml": "ignored: [SB999]\n", "bad/Dockerfile": Self.shellFormOnUntagged,
            "good/Dockerfile": Self.shellFormOnUntagged,
        ])
        let result = project.run(["bad/Dockerfile", "good/Dockerfile", "--format", "json"])
        #expect(result.status == .dataError)
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let bad = findings.filter { $0["file"] as? String == "bad/Dockerfile" }
        #expect(bad.map { $0["rule"] as? String } == ["SB035"])
        #expect((bad.first?["message"] as? String)?.contains("SB999 in ignored is not a stagebuild rule") == true)
        #expect(findings.contains { $0["file"] as? String == "good/Dockerfile" && $0["rule"] as? String == "SB013" })
        #expect(result.stderr.components(separatedBy: "SB999").count == 2, "said once: \(result.stderr)")
    }

    /// Two configs with the same fault are two problems, each said at its own file.
    @Test func twoBadConfigsAreEachSaid() throws {
        let project = try Project([
            "a/.stagebuild.yaml": "ignored: [SB999]\n", "a/Dockerfile": Self.shellFormOnUntagged,
            "b/.stagebuild.yaml": "ignored: [SB999]\n", "b/Dockerfile": Self.shellFormOnUntagged,
        ])
        let result = project.run(["a/Dockerfile", "b/Dockerfile", "a/Dockerfile"])
        #expect(result.status == .dataError, "\(result)")
        #expect(result.stderr.components(separatedBy: "SB999").count == 3, "once each: \(result.stderr)")
        #expect(result.stderr.contains("a/.stagebuild.yaml") && result.stderr.contains("b/.stagebuild.yaml"), "\(result.stderr)")
    }
}
