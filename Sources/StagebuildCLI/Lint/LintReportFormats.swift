import Digests
import Foundation
import Serialization
import StageKit

/// `stagebuild lint --format sarif`, `github`, `checkstyle` and `gitlab`: the findings in the
/// forms CI systems read, one home for their shapes and escaping rules.
enum LintReportFormats {
    /// One SARIF 2.1.0 log (OASIS SARIF 2.1.0, the form GitHub code scanning's `upload-sarif`
    /// reads) with one run: the tool's rules with their help (`tool.driver.rules`, every rule
    /// a finding can name, so `ruleIndex` points into it), and one result per finding with its
    /// level (error, warning; info and style are `note`), message and location. Columns count
    /// Unicode scalars, as lint's do, so the run's `columnKind` is `unicodeCodePoints`. A
    /// relative path is a URI reference against `%SRCROOT%` (the folder lint ran in); an
    /// absolute one a `file://` URI.
    static func sarif(_ results: [(file: String, findings: [LintFinding])]) -> String {
        let rules = Linter.ruleDescriptions
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($0.element.id, $0.offset) })
        let ruleObjects: [JSONValue] = rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("name", .string(rule.name)),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("help", .object([("text", .string("\(rule.summary) Fix: \(rule.hint)."))])),
                ("defaultConfiguration", .object([("level", .string(sarifLevel(rule.severity)))])),
            ])
        }
        var resultObjects: [JSONValue] = []
        for (file, findings) in results {
            var artifact: [(String, JSONValue)] = [("uri", .string(sarifURI(file)))]
            if !file.hasPrefix("/") { artifact.append(("uriBaseId", .string("%SRCROOT%"))) }
            for finding in findings {
                var result: [(String, JSONValue)] = [("ruleId", .string(finding.ruleID))]
                if let index = ruleIndex[finding.ruleID] { result.append(("ruleIndex", .integer(index))) }
                result += [
                    ("level", .string(sarifLevel(finding.severity))),
                    ("message", .object([("text", .string("\(finding.message) (hint: \(finding.hint))"))])),
                    (
                        "locations",
                        .array([
                            .object([
                                (
                                    "physicalLocation",
                                    .object([
                                        ("artifactLocation", .object(artifact)),
                                        (
                                            "region",
                                            .object([
                                                ("startLine", .integer(finding.line)), ("startColumn", .integer(finding.column)),
                                            ])
                                        ),
                                    ])
                                )
                            ])
                        ])
                    ),
                ]
                resultObjects.append(.object(result))
            }
        }
        let driver: JSONValue = .object([
            ("name", .string("stagebuild")),
            ("version", .string(StagebuildCommand.version)),
            ("rules", .array(ruleObjects)),
        ])
        let run: JSONValue = .object([
            ("tool", .object([("driver", driver)])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(resultObjects)),
        ])
        return JSONValue.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ]).text() + "\n"
    }

    /// SARIF's `level` for a severity.
    private static func sarifLevel(_ severity: LintSeverity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info, .style: "note"
        }
    }

    /// A path as a URI reference (RFC 3986): bytes outside the unreserved set and `/` are
    /// percent-encoded; an absolute path becomes a `file://` URI.
    static func sarifURI(_ path: String) -> String {
        (path.hasPrefix("/") ? "file://" : "")
            + PercentEncoding.encoded(path) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "/") }
    }

    /// GitLab's Code Quality report (GitLab docs, "Code Quality", the CodeClimate-based JSON):
    /// one array of issues with `description`, `check_name` (the rule id), `fingerprint` (a
    /// SHA-256 of file, rule, line, column and message, unique per issue and stable across
    /// runs), `severity` (error is `critical`, warning `major`, info `info`, style `minor`) and
    /// `location` with `path` and `lines.begin`.
    static func gitlab(_ results: [(file: String, findings: [LintFinding])]) -> String {
        var issues: [JSONValue] = []
        for (file, findings) in results {
            for finding in findings {
                let identity = [file, finding.ruleID, String(finding.line), String(finding.column), finding.message]
                    .joined(separator: "\u{0}")
                let severity =
                    switch finding.severity {
                    case .error: "critical"
                    case .warning: "major"
                    case .info: "info"
                    case .style: "minor"
                    }
                issues.append(
                    .object([
                        ("description", .string("\(finding.ruleID) \(finding.message) (hint: \(finding.hint))")),
                        ("check_name", .string(finding.ruleID)),
                        ("fingerprint", .string(SHA256Digest(of: Array(identity.utf8)).hex)),
                        ("severity", .string(severity)),
                        (
                            "location",
                            .object([("path", .string(file)), ("lines", .object([("begin", .integer(finding.line))]))])
                        ),
                    ]))
            }
        }
        return JSONValue.array(issues).text() + "\n"
    }

    /// GitHub Actions workflow commands, one per finding: `::warning file=F,line=L,col=C,title=SBnnn::message`
    /// (GitHub's "Workflow commands for GitHub Actions": error, warning and notice). Info and
    /// style findings are notices. In the message `%`, CR and LF are escaped as `%25`, `%0D`,
    /// `%0A`; in properties `:` and `,` too (`%3A`, `%2C`).
    static func github(_ results: [(file: String, findings: [LintFinding])]) -> String {
        var text = ""
        for (file, findings) in results {
            for finding in findings {
                let level =
                    switch finding.severity {
                    case .error: "error"
                    case .warning: "warning"
                    default: "notice"
                    }
                text += "::\(level) file=\(property(file)),line=\(finding.line),col=\(finding.column),"
                text += "title=\(property(finding.ruleID))::\(data("\(finding.message) (hint: \(finding.hint))"))\n"
            }
        }
        return text
    }

    /// Checkstyle's XML (version 4.3, as hadolint and most linters write it): one `<file>` per
    /// file linted, findings or not, one `<error>` per finding with `line`, `column`,
    /// `severity` (error, warning, info: style findings are info), `message` and `source` (the
    /// rule id).
    static func checkstyle(_ results: [(file: String, findings: [LintFinding])]) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for (file, findings) in results {
            text += "  <file name=\"\(MarkupText.escaped(file))\">\n"
            for finding in findings {
                let severity =
                    switch finding.severity {
                    case .error: "error"
                    case .warning: "warning"
                    default: "info"
                    }
                text += "    <error line=\"\(finding.line)\" column=\"\(finding.column)\" severity=\"\(severity)\" "
                text +=
                    "message=\"\(MarkupText.escaped("\(finding.message) (hint: \(finding.hint))"))\" source=\"\(MarkupText.escaped(finding.ruleID))\"/>\n"
            }
            text += "  </file>\n"
        }
        return text + "</checkstyle>\n"
    }

    /// A workflow command's message.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
