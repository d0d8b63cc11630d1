import DockerfileSyntax
import Foundation
import Serialization
import StageKit

/// `stagebuild lint`: reports what keeps Dockerfiles, stage templates and Stagefiles from
/// building reproducibly and safely, one finding per line with its rule id and a fix hint.
enum LintCommand: Subcommand {
    static let name = "lint"
    static let summary = "Report reproducibility and safety findings in Dockerfiles, with rule ids."
    static let usage =
        "lint FILE... [--format \(Format.allCases.map(\.rawValue).joined(separator: "|"))] [--failure-threshold SEVERITY] "
        + "[--config FILE]"
    static let discussion = """
        Reads each FILE (a Dockerfile, a stage template or a Stagefile) as BuildKit does and
        runs every rule. Text output is one finding per line, then its fix:

          FILE:LINE:COLUMN: SEVERITY: SBnnn MESSAGE
              hint: HOW TO FIX IT

        --format json prints one array of objects with the fields file, line, column, rule,
        severity, message and hint, sorted by file (in the order given), line and column.
        --format sarif prints one SARIF 2.1.0 log (GitHub code scanning's upload-sarif reads
        it); github prints GitHub Actions workflow commands (::warning file=…,line=…,col=…);
        checkstyle prints Checkstyle XML; gitlab prints GitLab's Code Quality JSON. In these
        formats a file that cannot be read is an SB034 finding, one that does not parse SB035.

        Each FILE's lint config is the nearest .stagebuild.yaml (or .stagebuild.yml) from its
        folder upwards to the repository root, or --config FILE for all of them:

          failure-threshold: warning    # error, warning, info, style or none
          ignored: [SB013]              # rules not run
          override: {error: [SB003]}    # severities changed: error, warning, info, style
          trustedRegistries: [docker.io, "*.corp.example"]   # SB033: images from others
          enforced: [SB001]             # no pragma switches these off (SB016 says so)

        --failure-threshold on the command line wins over the config's.

        A comment line `# stagebuild ignore=SBnnn[,SBmmm] REASON` directly above an
        instruction switches those rules off for that instruction only. `stagebuild`,
        `ignore` and the ids are read in any case, with spaces allowed around `=` and the
        commas. A pragma that is malformed, names no stagebuild rule, gives no reason or
        applies to no instruction is itself a finding (SB016), so none does nothing silently.
        `# stagebuild global ignore=SBnnn REASON` above the first instruction switches rules
        off for the whole file.

        Rules:
        \(ruleList)
        Exit status: 0 no finding reached the threshold, 1 one did, 64 usage, 65 a file that
        BuildKit's parser rejects or that is not UTF-8 text, or a lint config that is not
        valid (file:line:column), 74 a file or config that cannot be read (with the system's
        reason) or is a directory.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "FORMAT",
            // Format.text comes first: the default.
            help: "Output format: text (default), \(ArgumentScanner.words(Format.allCases.dropFirst().map(\.rawValue)))."),
        ArgumentScanner.Option(
            names: ["--failure-threshold"], takesValue: true, valueName: "SEVERITY",
            help: "Exit 1 when a finding is this severe or more: error, warning (default), info, style, none."),
        ArgumentScanner.Option(
            names: ["--config"], takesValue: true, valueName: "FILE",
            help: "Lint config for every FILE, instead of each file's nearest .stagebuild.yaml."),
    ]

    /// The `--format` values.
    enum Format: String, CaseIterable {
        case text, json, sarif, github, checkstyle, gitlab
    }

    /// One line per rule for `--help`: id, severity, summary.
    private static var ruleList: String {
        Linter.ruleDescriptions.map { rule in
            "  \(rule.id)  \(rule.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))\(rule.summary)\n"
        }.joined()
    }

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        let format = try arguments.choice("--format", default: Format.text)
        let threshold: LintFailureThreshold? =
            arguments.value("--failure-threshold") == nil
            ? nil : try arguments.choice("--failure-threshold", default: LintFailureThreshold.none)
        guard !arguments.positionals.isEmpty else { throw CommandFailure.usage("expected at least one FILE to lint") }

        var configurations = LintConfigurationSearch(context: context, explicitFile: arguments.value("--config"))
        var results: [(file: String, findings: [LintFinding])] = []
        var status = ExitCode.success
        // Files and configs that could not be read or parsed: said on standard error after the report.
        var problems: [CommandFailure] = []
        for file in arguments.positionals {
            let configuration: LintConfiguration
            switch configurations.configuration(forFile: file) {
            case .success(let found):
                configuration = found
            case .failure(let problem):
                // Each config's problem is said once; every file it governs goes unlinted, and the
                // machine formats say so for each (SB034 for a config that cannot be read, SB035
                // for one that is not valid), so a CI report never just comes out shorter.
                let said = problem.rendered(color: false)
                if !problems.contains(where: { $0.rendered(color: false) == said }) { problems.append(problem) }
                let rule: LintRuleDescription = problem.exitCode == .ioError ? .unreadableFile : .unparsableFile
                if format != .text { results.append((file, [rule.finding("not linted: its lint config: \(problem.message)")])) }
                continue
            }
            let linter = Linter(failureThreshold: threshold, configuration: configuration)
            let outcome = lint(file, with: linter, context: context)
            if let problem = outcome.problem {
                problems.append(problem)
                // The text report leaves the file out (standard error says it); the formats
                // machines read carry it as an SB034 or SB035 finding, so no file goes missing.
                if format != .text { results.append((file, outcome.findings)) }
            } else {
                results.append((file, outcome.findings))
                if status == .success, linter.fails(outcome.findings) { status = .checkFailed }
            }
        }

        switch format {
        case .json: context.standardOutput.write(jsonReport(records(results)))
        case .sarif: context.standardOutput.write(LintReportFormats.sarif(results))
        case .github: context.standardOutput.write(LintReportFormats.github(results))
        case .checkstyle: context.standardOutput.write(LintReportFormats.checkstyle(results))
        case .gitlab: context.standardOutput.write(LintReportFormats.gitlab(results))
        case .text: context.standardOutput.write(textReport(records(results)))
        }
        if let last = problems.last {
            // An unreadable file (74) outranks a malformed one (65), and both a finding (1).
            throw CommandFailure(
                exitCode: problems.contains { $0.exitCode == .ioError } ? .ioError : last.exitCode,
                reports: problems.flatMap(\.reports))
        }
        return status
    }

    /// Lints one file. A file that cannot be read or parsed gives one SB034 or SB035 finding.
    private static func lint(
        _ file: String, with linter: Linter, context: CommandContext
    ) -> (findings: [LintFinding], problem: CommandFailure?) {
        let bytes: [UInt8]
        do {
            bytes = try context.fileSystem.readBytes(at: Paths.absolute(file, from: context.currentDirectory))
        } catch {
            let message = "cannot read \(file): \(error.reason)"
            return ([LintRuleDescription.unreadableFile.finding(message)], .error(.ioError, message))
        }
        let location: SourceLocation
        let message: String
        do {
            return (try linter.lint(text: try LintSourceText.decode(bytes)), nil)
        } catch let error as LintSourceText.InvalidUTF8 {
            (location, message) = (SourceLocation(line: error.line, column: error.column), error.message)
        } catch let error as DockerfileSyntaxError {
            (location, message) = (error.location, error.message)
        } catch {
            (location, message) = (SourceLocation(line: 1, column: 1), "\(error)")
        }
        let diagnostic = Diagnostic(
            file: file, line: location.line, column: location.column, severity: "error", message: message)
        return (
            [LintRuleDescription.unparsableFile.finding(message, at: location)],
            CommandFailure(exitCode: .dataError, report: .diagnostic(diagnostic))
        )
    }

    /// Each file's findings as records at their own positions.
    static func records(_ results: [(file: String, findings: [LintFinding])]) -> [Record] {
        results.flatMap { file, findings in findings.map { Record(file: file, line: $0.line, column: $0.column, finding: $0) } }
    }

    /// The text report: `FILE:LINE:COLUMN: SEVERITY: RULE MESSAGE` for each finding, then, indented,
    /// where it is in the composed file (`compose --lint`) and its hint.
    ///
    /// - Parameter records: The findings with their positions.
    static func textReport(_ records: [Record]) -> String {
        var text = ""
        for record in records {
            text += "\(record.file):\(record.line):\(record.column): \(record.severity): \(record.rule) \(record.message)\n"
            if let file = record.composedFile, let line = record.composedLine, let column = record.composedColumn {
                text += "    composed: \(file):\(line):\(column)\n"
            }
            text += "    hint: \(record.hint)\n"
        }
        return text
    }

    /// The records as one JSON array, keys sorted, two-space indent and a final newline.
    ///
    /// - Parameter records: The findings with their positions.
    static func jsonReport(_ records: [Record]) -> String {
        JSONValue.array(records.map(\.json)).text() + "\n"
    }

    /// One finding in `--format json`; the field names are part of the interface. `compose
    /// --lint` adds where the finding is in the composed file (`composedFile`, `composedLine`,
    /// `composedColumn`); `stagebuild lint` leaves them out.
    struct Record {
        var file: String
        var line: Int
        var column: Int
        var rule: String
        var severity: String
        var message: String
        var hint: String
        var composedFile: String?
        var composedLine: Int?
        var composedColumn: Int?

        /// A finding at a position.
        ///
        /// - Parameters:
        ///   - file: The file the position is in.
        ///   - line: The 1-based line there.
        ///   - column: The 1-based column.
        ///   - finding: The finding.
        init(file: String, line: Int, column: Int, finding: LintFinding) {
            self.file = file
            self.line = line
            self.column = column
            rule = finding.ruleID
            severity = finding.severity.rawValue
            message = finding.message
            hint = finding.hint
        }

        /// The record as a JSON object, keys in sorted order; the composed position only when known.
        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("file", .string(file)), ("line", .integer(line)), ("column", .integer(column)), ("rule", .string(rule)),
                ("severity", .string(severity)), ("message", .string(message)), ("hint", .string(hint)),
            ]
            if let composedFile { members.append(("composedFile", .string(composedFile))) }
            if let composedLine { members.append(("composedLine", .integer(composedLine))) }
            if let composedColumn { members.append(("composedColumn", .integer(composedColumn))) }
            return .sortedObject(members)
        }
    }
}
