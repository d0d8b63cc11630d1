import DockerfileSyntax
import Foundation
import StageKit

/// `stagebuild lint`: reports what keeps Dockerfiles, stage templates and Stagefiles from
/// building reproducibly and safely, one finding per line with its rule id and a fix hint.
enum LintCommand: Subcommand {
    static let name = "lint"
    static let summary = "Report reproducibility and safety findings in Dockerfiles, with rule ids."
    static let usage = "lint FILE... [--format text|json] [--failure-threshold error|warning|info|style|none]"
    static let discussion = """
        Reads each FILE (a Dockerfile, a stage template or a Stagefile) as BuildKit does and
        runs every rule. Text output is one finding per line, then its fix:

          FILE:LINE:COLUMN: SEVERITY: SBnnn MESSAGE
              hint: HOW TO FIX IT

        --format json prints one array of objects with the fields file, line, column, rule,
        severity, message and hint, sorted by file (in the order given), line and column.

        A comment line `# stagebuild ignore=SBnnn[,SBmmm] REASON` directly above an
        instruction switches those rules off for that instruction only.

        Rules:
        \(ruleList)
        Exit status: 0 no finding reached the threshold, 1 one did, 64 usage, 65 a file that
        BuildKit's parser rejects (file:line:column), 74 a file that cannot be read.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "text|json", help: "Output format (default text)."),
        ArgumentScanner.Option(
            names: ["--failure-threshold"], takesValue: true, valueName: "SEVERITY",
            help: "Exit 1 when a finding is this severe or more: error, warning (default), info, style, none."),
    ]

    /// One line per rule for `--help`: id, severity, summary.
    private static var ruleList: String {
        Linter.allRules.map { rule in
            "  \(rule.id)  \(rule.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))\(rule.summary)\n"
        }.joined()
    }

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) -> ExitCode {
        let format = arguments.value("--format") ?? "text"
        guard format == "text" || format == "json" else { throw UsageError("--format must be text or json, not '\(format)'") }
        let thresholdArgument = arguments.value("--failure-threshold") ?? LintFailureThreshold.warning.rawValue
        guard let threshold = LintFailureThreshold(rawValue: thresholdArgument) else {
            let names = LintFailureThreshold.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--failure-threshold must be one of \(names), not '\(thresholdArgument)'")
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("expected at least one FILE to lint") }

        let linter = Linter(failureThreshold: threshold)
        let fileSystem = LocalFileSystem()
        var results: [(file: String, findings: [LintFinding])] = []
        var unreadable = false
        var malformed = false
        for file in arguments.positionals {
            let text: String
            do {
                text = try fileSystem.readText(at: Paths.absolute(file, from: context.currentDirectory))
            } catch {
                context.reportError("cannot read \(file): \(error.reason)")
                unreadable = true
                continue
            }
            do {
                results.append((file, try linter.lint(text: text)))
            } catch {
                let diagnostic = Diagnostic(
                    file: file, line: error.location.line, column: error.location.column, severity: "error",
                    message: error.message)
                context.standardError.write(diagnostic.rendered(color: context.usesColor))
                malformed = true
            }
        }

        context.standardOutput.write(format == "json" ? jsonReport(results) : textReport(results))
        if unreadable { return .ioError }
        if malformed { return .dataError }
        return results.contains { linter.fails($0.findings) } ? .checkFailed : .success
    }

    /// `file:line:column: severity: SBnnn message`, then an indented `hint:` line, per finding.
    static func textReport(_ results: [(file: String, findings: [LintFinding])]) -> String {
        var text = ""
        for (file, findings) in results {
            for finding in findings {
                text += "\(file):\(finding.description)\n    hint: \(finding.hint)\n"
            }
        }
        return text
    }

    /// One JSON array of finding objects with sorted keys, two-space indent and a final newline.
    static func jsonReport(_ results: [(file: String, findings: [LintFinding])]) -> String {
        let records = results.flatMap { file, findings in
            findings.map { finding in
                Record(
                    file: file, line: finding.line, column: finding.column, rule: finding.ruleID,
                    severity: finding.severity.rawValue, message: finding.message, hint: finding.hint)
            }
        }
        guard !records.isEmpty else { return "[]\n" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(records)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One finding in `--format json`; the field names are part of the interface.
    private struct Record: Encodable {
        var file: String
        var line: Int
        var column: Int
        var rule: String
        var severity: String
        var message: String
        var hint: String
    }
}
