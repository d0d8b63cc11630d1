import Foundation
import StageKit

/// `stagebuild lint --format github` and `--format checkstyle`: the findings in the forms CI
/// systems read, one home for their escaping rules.
enum LintReportFormats {
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
            text += "  <file name=\"\(xml(file))\">\n"
            for finding in findings {
                let severity =
                    switch finding.severity {
                    case .error: "error"
                    case .warning: "warning"
                    default: "info"
                    }
                text += "    <error line=\"\(finding.line)\" column=\"\(finding.column)\" severity=\"\(severity)\" "
                text += "message=\"\(xml("\(finding.message) (hint: \(finding.hint))"))\" source=\"\(xml(finding.ruleID))\"/>\n"
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

    /// Text for an XML attribute value: the five predefined entities, and control characters
    /// (which XML 1.0 cannot hold raw, save tab, LF and CR) as character references.
    static func xml(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped += "&#\(scalar.value);"
            case _ where scalar.value < 0x20: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
