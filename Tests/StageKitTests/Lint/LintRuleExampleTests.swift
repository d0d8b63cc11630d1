import DockerfileSyntax
import StageKit
import Testing

/// One example snippet of one lint rule, as the shared test runs it.
struct LintRuleExample: Sendable, CustomTestStringConvertible {
    var ruleID: String
    var number: Int
    var text: String
    var triggers: Bool

    var testDescription: String { "\(ruleID) \(triggers ? "triggering" : "non-triggering") example \(number)" }

    /// Every example of every shipped rule, triggering ones first.
    static let all: [LintRuleExample] = Linter.allRules.flatMap { rule in
        rule.triggeringExamples.enumerated().map {
            LintRuleExample(ruleID: rule.id, number: $0.offset + 1, text: $0.element, triggers: true)
        }
            + rule.nonTriggeringExamples.enumerated().map {
                LintRuleExample(ruleID: rule.id, number: $0.offset + 1, text: $0.element, triggers: false)
            }
    }
}

/// The one shared test over every rule's examples (SwiftLint's `verifyRule`, hadolint's
/// per-rule specs), and the facts every rule must state about itself.
@Suite struct LintRuleExampleTests {
    @Test(arguments: LintRuleExample.all)
    func exampleFiresItsRuleExactlyWhenItShould(_ example: LintRuleExample) throws {
        let rule = try #require(Linter.allRules.first { $0.id == example.ruleID })
        let findings = try Linter(rules: [rule], configuration: rule.exampleConfiguration).lint(text: example.text)
        if example.triggers {
            #expect(!findings.isEmpty, "expected \(rule.id) to fire on:\n\(example.text)")
        } else {
            #expect(findings.isEmpty, "expected \(rule.id) not to fire on:\n\(example.text)\nfound: \(findings)")
        }
        let lines = example.text.split(separator: "\n", omittingEmptySubsequences: false)
        for finding in findings {
            #expect(finding.ruleID == rule.id)
            #expect(finding.severity == rule.severity)
            // SB016's finding on an enforced rule carries its own fix (the pragma's syntax is fine).
            let ownHint = rule.id == "SB016" && finding.message.contains("is enforced by")
            #expect(finding.hint == rule.hint || ownHint)
            #expect(!finding.message.isEmpty && !finding.message.hasSuffix("."))
            let line = try #require(lines.indices.contains(finding.line - 1) ? lines[finding.line - 1] : nil)
            #expect(finding.column >= 1 && finding.column <= max(1, line.unicodeScalars.count))
        }
    }

    @Test func ruleIDsAreWellFormedUniqueAndInOrder() {
        let ids = Linter.allRules.map(\.id)
        #expect(ids.allSatisfy(LintPragma.isRuleID))
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(ids.first == "SB001")
        #expect(ids.count >= 14)
    }

    @Test func everyRuleHasANameSummaryHintAndExamplesOfBothKinds() {
        var names: Set<String> = []
        for rule in Linter.allRules {
            #expect(names.insert(rule.name).inserted, "\(rule.id) repeats the name \(rule.name)")
            #expect(rule.name.allSatisfy { $0.isLowercase || $0 == "-" }, "\(rule.id) name \(rule.name) is not kebab-case")
            #expect(!rule.summary.isEmpty && !rule.hint.isEmpty)
            #expect(!rule.triggeringExamples.isEmpty, "\(rule.id) has no triggering example")
            #expect(!rule.nonTriggeringExamples.isEmpty, "\(rule.id) has no non-triggering example")
        }
    }

    @Test func theRuleListCoversTheIssue() {
        let expected = [
            "SB001": "image-without-digest", "SB002": "image-latest-or-untagged", "SB003": "apt-get-install-without-pins",
            "SB004": "apt-lists-not-removed", "SB005": "apt-get-install-recommends", "SB006": "apt-get-upgrade",
            "SB007": "pip-install-without-pins", "SB008": "npm-install-instead-of-ci", "SB009": "download-piped-to-shell",
            "SB010": "add-url-without-checksum", "SB011": "git-clone-without-commit", "SB012": "root-user",
            "SB013": "shell-form-command", "SB014": "secret-in-arg-or-env", "SB015": "duplicate-stage-name",
            "SB016": "invalid-pragma", "SB018": "apk-add-without-pins", "SB019": "apk-add-without-no-cache",
            "SB020": "dnf-install-without-pins", "SB021": "dnf-cache-not-cleaned", "SB022": "zypper-install-without-pins",
            "SB023": "go-install-without-version", "SB024": "npm-install-without-version",
            "SB025": "gem-install-without-version", "SB026": "cargo-install-without-version-or-locked",
            "SB027": "pipe-without-pipefail", "SB028": "download-without-checksum", "SB029": "arg-without-default-in-from",
            "SB030": "invalid-onbuild-trigger", "SB031": "misplaced-parser-directive", "SB032": "maintainer-deprecated",
            "SB033": "untrusted-registry", "SB036": "variable-in-exec-form", "SB037": "build-argument-read-at-run-time",
            "SB038": "pipefail-under-dash", "SB039": "insecure-run-option", "SB040": "tool-install-without-version",
            "SB041": "variable-in-from-flag", "SB042": "flag-without-value",
        ]
        for (id, name) in expected {
            #expect(Linter().rule(withID: id)?.name == name)
        }
        let fileRules = Linter.ruleDescriptions.filter { description in !Linter.allRules.contains { $0.id == description.id } }
        #expect(fileRules.map(\.id) == ["SB034", "SB035"])
        #expect(fileRules.map(\.name) == ["unreadable-file", "unparsable-file"])
    }

    @Test func secretFindingsNeverPrintTheValue() throws {
        let findings = try Linter().lint(text: "ENV DB_PASSWORD=hunter2 API_TOKEN=\"s3cr3t value\"\nARG NPM_TOKEN=npm_abc123\n")
        #expect(findings.map(\.ruleID) == ["SB014", "SB014", "SB014"])
        for finding in findings {
            for value in ["hunter2", "s3cr3t", "npm_abc123"] {
                #expect(!finding.message.contains(value) && !finding.hint.contains(value))
            }
        }
    }
}
