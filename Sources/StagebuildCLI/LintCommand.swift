import DockerfileSyntax
import Foundation
import StageKit

/// `stagebuild lint`: reports what keeps Dockerfiles, stage templates and Stagefiles from
/// building reproducibly and safely, one finding per line with its rule id and a fix hint.
enum LintCommand: Subcommand {
    static let name = "lint"
    static let summary = "Report reproducibility and safety findings in Dockerfiles, with rule ids."
    static let usage =
        "lint FILE... [--format text|json|github|checkstyle] [--failure-threshold error|warning|info|style|none]"
    static let discussion = """
        Reads each FILE (a Dockerfile, a stage template or a Stagefile) as BuildKit does and
        runs every rule. Text output is one finding per line, then its fix:

          FILE:LINE:COLUMN: SEVERITY: SBnnn MESSAGE
              hint: HOW TO FIX IT

        --format json prints one array of objects with the fields file, line, column, rule,
        severity, message and hint, sorted by file (in the order given), line and column.
        --format github prints GitHub Actions workflow commands (::warning file=…,line=…,col=…),
        which annotate the pull request; --format checkstyle prints Checkstyle XML.

        A comment line `# stagebuild ignore=SBnnn[,SBmmm] REASON` directly above an
        instruction switches those rules off for that instruction only. `stagebuild`,
        `ignore` and the ids are read in any case, with spaces allowed around `=` and the
        commas. A pragma that is malformed, names no stagebuild rule, gives no reason or
        applies to no instruction is itself a finding (SB016), so none does nothing silently.

        Rules:
        \(ruleList)
        Exit status: 0 no finding reached the threshold, 1 one did, 64 usage, 65 a file that
        BuildKit's parser rejects or that is not UTF-8 text (file:line:column), 74 a file
        that cannot be read (with the system's reason) or is a directory.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "text|json|github|checkstyle",
            help: "Output format (default text); github: workflow commands; checkstyle: XML."),
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
        guard ["text", "json", "github", "checkstyle"].contains(format) else {
            throw UsageError("--format must be text, json, github or checkstyle, not '\(format)'")
        }
        let thresholdArgument = arguments.value("--failure-threshold") ?? LintFailureThreshold.warning.rawValue
        guard let threshold = LintFailureThreshold(rawValue: thresholdArgument) else {
            let names = LintFailureThreshold.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--failure-threshold must be one of \(names), not '\(thresholdArgument)'")
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("expected at least one FILE to lint") }

        let linter = Linter(failureThreshold: threshold)
        var results: [(file: String, findings: [LintFinding])] = []
        var unreadable = false
        var malformed = false
        for file in arguments.positionals {
            let bytes: [UInt8]
            switch readBytes(atPath: Paths.absolute(file, from: context.currentDirectory)) {
            case .success(let read):
                bytes = read
            case .failure(let failure):
                context.reportError("cannot read \(file): \(failure.reason)")
                unreadable = true
                continue
            }
            let text: String
            do {
                text = try LintSourceText.decode(bytes)
            } catch {
                let diagnostic = Diagnostic(
                    file: file, line: error.line, column: error.column, severity: "error", message: error.message)
                context.standardError.write(diagnostic.rendered(color: context.usesColor))
                malformed = true
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

        switch format {
        case "json": context.standardOutput.write(jsonReport(results))
        case "github": context.standardOutput.write(LintReportFormats.github(results))
        case "checkstyle": context.standardOutput.write(LintReportFormats.checkstyle(results))
        default: context.standardOutput.write(textReport(results))
        }
        if unreadable { return .ioError }
        if malformed { return .dataError }
        return results.contains { linter.fails($0.findings) } ? .checkFailed : .success
    }

    /// Why a file to lint could not be read: the system's reason (strerror), or that it is
    /// a directory.
    struct ReadFailure: Error {
        /// E.g. `No such file or directory`, `Permission denied`, `is a directory`.
        var reason: String
    }

    /// Reads a whole file with open(2) and read(2), so that a failure carries the system's
    /// reason, and a directory is named as such instead of failing later.
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The file's bytes, or why they could not be read.
    static func readBytes(atPath path: String) -> Result<[UInt8], ReadFailure> {
        func failure(_ code: Int32) -> Result<[UInt8], ReadFailure> {
            .failure(ReadFailure(reason: String(cString: strerror(code))))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return failure(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { return .failure(ReadFailure(reason: "is a directory")) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, status.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .success(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return failure(errno)
            }
            bytes += chunk[..<count]
        }
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
        jsonReport(
            results.flatMap { file, findings in
                findings.map { Record(file: file, line: $0.line, column: $0.column, finding: $0) }
            })
    }

    /// The records as one JSON array with sorted keys, two-space indent and a final newline.
    ///
    /// - Parameter records: The findings with their positions.
    static func jsonReport(_ records: [Record]) -> String {
        guard !records.isEmpty else { return "[]\n" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(records)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One finding in `--format json`; the field names are part of the interface. `compose
    /// --lint` adds where the finding is in the composed file (`composedFile`, `composedLine`,
    /// `composedColumn`); `stagebuild lint` leaves them out.
    struct Record: Encodable {
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
    }
}
