import StageKit
import Testing
import YAML

/// `.stagebuild.yaml` as the linter applies it: rules left out, severities overridden,
/// enforced rules that no pragma silences, and the registries SB033 trusts.
@Suite struct LintConfigurationTests {
    @Test func theFullFormatReads() throws {
        let configuration = try LintConfiguration(
            parsing: """
                failure-threshold: info
                ignored: [sb013]
                override:
                  error: [SB003]
                  style:
                    - SB005
                trustedRegistries: [docker.io, "*.corp.example", "localhost:5000", "[::1]:5000"]
                enforced: [SB001]
                """, file: "c.yaml")
        #expect(configuration.failureThreshold == .info)
        #expect(configuration.ignored == ["SB013"])
        #expect(configuration.severityOverrides == ["SB003": .error, "SB005": .style])
        #expect(configuration.trustedRegistries == ["docker.io", "*.corp.example", "localhost:5000", "[::1]:5000"])
        #expect(configuration.enforced == ["SB001"])
        #expect(try LintConfiguration(parsing: "# only a comment\n", file: "c.yaml") == LintConfiguration(file: "c.yaml"))
    }

    @Test func ignoredRulesDoNotRunAndOverridesChangeSeverities() throws {
        let text = "FROM debian:12\nRUN apt-get update && apt-get install -y curl\nCMD node server.js\n"
        let plain = Set(try Linter().lint(text: text).map(\.ruleID))
        #expect(plain.isSuperset(of: ["SB003", "SB013"]))
        let configured = Linter(
            configuration: LintConfiguration(ignored: ["SB013"], severityOverrides: ["SB003": .error], failureThreshold: .error))
        let findings = try configured.lint(text: text)
        #expect(!findings.contains { $0.ruleID == "SB013" })
        #expect(findings.first { $0.ruleID == "SB003" }?.severity == .error)
        #expect(configured.failureThreshold == .error)
        #expect(configured.fails(findings))
        #expect(
            Linter(failureThreshold: LintFailureThreshold.none, configuration: LintConfiguration(failureThreshold: .error))
                .failureThreshold == LintFailureThreshold.none)
    }

    @Test func enforcedRulesIgnoreEveryPragma() throws {
        let text =
            "# stagebuild global ignore=SB013 everywhere\nFROM debian:12\n# stagebuild ignore=SB013 here\nCMD node server.js\n"
        #expect(!(try Linter().lint(text: text)).contains { $0.ruleID == "SB013" })
        let findings = try Linter(configuration: LintConfiguration(enforced: ["SB013"], file: "policy.yaml")).lint(text: text)
        #expect(findings.filter { $0.ruleID == "SB013" }.map(\.line) == [4])
        #expect(
            findings.filter { $0.ruleID == "SB016" }.map(\.message) == [
                "SB013 is enforced by policy.yaml: no pragma switches it off",
                "SB013 is enforced by policy.yaml: no pragma switches it off",
            ])
        // The fix is a choice between the pragma and the config, not the pragma's syntax.
        #expect(
            findings.filter { $0.ruleID == "SB016" }.map(\.hint)
                == Array(
                    repeating: "remove the pragma, or take SB013 out of enforced in policy.yaml", count: 2))
    }

    @Test(arguments: [
        ("debian", ["docker.io"], true),
        ("index.docker.io/library/debian", ["docker.io"], true),
        ("debian", ["registry-1.docker.io"], true),
        ("quay.io/a/b", ["docker.io"], false),
        ("registry.corp.example/a", ["*.corp.example"], true),
        ("corp.example/a", ["*.corp.example"], false),
        ("evilcorp.example/a", ["*.corp.example"], false),
        ("localhost:5000/a", ["localhost"], false),
        ("localhost:5000/a", ["LOCALHOST:5000"], true),
    ])
    func registriesMatchByDomainAndPort(_ image: String, _ trusted: [String], _ expected: Bool) throws {
        let linter = Linter(configuration: LintConfiguration(trustedRegistries: trusted))
        let findings = try linter.lint(text: "FROM \(image):1\n")
        #expect(findings.contains { $0.ruleID == "SB033" } == !expected)
    }
}
