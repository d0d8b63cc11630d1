import DockerfileSyntax

/// SB016: an ignore pragma (`# stagebuild ignore=SBnnn[,SBnnn] REASON`) is malformed, names an
/// id that is not a stagebuild rule, gives no reason, reads a rule id as its reason (ids
/// separated by a space instead of a comma), or applies to no instruction because a blank
/// line, a parser directive or the end of the file follows it. Each would otherwise switch
/// off less than its author meant without a word. A comment is a pragma attempt when it
/// starts with `stagebuild` and then `ignore`, in any case. Well-formed ids of a pragma with
/// a problem still apply; a malformed pragma applies none. A global pragma
/// (`# stagebuild global ignore=…`) below the first instruction switches nothing off and is
/// reported, and so is a pragma that names a rule the lint config enforces (the finding stays).
///
/// The finding sits on the comment line, not on an instruction, so no pragma can switch it
/// off. Source: hadolint's `# hadolint ignore=DLnnnn` pragmas; SwiftLint's
/// `blanket_disable_command` and `invalid_swiftlint_command` rules.
struct SB016InvalidPragma: LintRule {
    let id = "SB016"
    let name = "invalid-pragma"
    let severity = LintSeverity.warning
    let summary =
        "An ignore pragma is malformed, names an unknown or enforced rule, gives no reason, or applies to no instruction."
    let hint = "write '# stagebuild ignore=SBnnn[,SBnnn] REASON' on the comment lines directly above the instruction"
    let triggeringExamples = [
        "# stagebuild ignore=SB999 no such rule\nCMD node server.js\n",
        "# stagebuild ignore=SB013\nCMD node server.js\n",
        "# stagebuild ignore=SB003 SB005 two ids without a comma\nRUN apt-get install -y curl\n",
        "# stagebuild: ignore=SB013 a colon after stagebuild\nCMD node server.js\n",
        "# stagebuild ignore SB013 no equals sign\nCMD node server.js\n",
        "# stagebuild ignore=\nCMD node server.js\n",
        "# stagebuild ignore=DL3025 a hadolint id\nCMD node server.js\n",
        "# stagebuild ignore=SB013 a blank line follows\n\nCMD node server.js\n",
        "CMD node server.js\n# stagebuild ignore=SB013 nothing follows\n",
        "FROM debian:bookworm-slim\n# stagebuild global ignore=SB005 below the first instruction\nRUN true\n",
        "# stagebuild global ignore=SB001 the example config enforces SB001\nFROM debian:bookworm-slim\n",
        "# stagebuild ignore=SB001 the example config enforces SB001\nFROM debian:bookworm-slim\n",
    ]
    let nonTriggeringExamples = [
        "# stagebuild ignore=SB013 the shell expands $PORT\nCMD node server.js --port $PORT\n",
        "# Stagebuild IGNORE = sb003 , sb005 pinned by the snapshot date\nRUN apt-get install -y curl\n",
        "# stagebuild composes this file; do not edit\nFROM scratch\n",
        "# hadolint ignore=DL3008\nRUN apt-get install -y curl\n",
        "# stagebuild global ignore=SB005 the base image sets no-install-recommends\n\nFROM debian:bookworm-slim\n",
    ]

    /// The rules the lint config enforces: a pragma naming one is reported, and the finding stays.
    var enforced: Set<String> = []
    /// The config file that enforces them, for the message.
    var configFile: String?

    var exampleConfiguration: LintConfiguration { LintConfiguration(enforced: ["SB001"], file: ".stagebuild.yaml") }

    func configured(by configuration: LintConfiguration) -> any LintRule {
        SB016InvalidPragma(enforced: configuration.enforced, configFile: configuration.file)
    }

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for comment in document.pragmas {
            let at = SourceLocation(line: comment.line, column: comment.pragma.column)
            for problem in comment.pragma.problems {
                findings.append(finding(problem.message, at: SourceLocation(line: comment.line, column: problem.column)))
            }
            if comment.pragma.isGlobal {
                if !comment.isAboveFirstInstruction, !comment.pragma.ruleIDs.isEmpty {
                    let message = "a global pragma applies only above the file's first instruction; this one switches nothing off"
                    findings.append(finding(message, at: at))
                }
            } else if comment.instructionLines == nil, !comment.pragma.ruleIDs.isEmpty {
                let message = "pragma applies to no instruction: a blank line or the end of the file follows it"
                findings.append(finding(message, at: at))
            }
            for id in comment.pragma.ruleIDs where enforced.contains(id) {
                let config = configFile ?? "the lint config"
                var enforcedFinding = finding("\(id) is enforced by \(config): no pragma switches it off", at: at)
                // The pragma's syntax is fine here: the fix is a choice between the pragma and the config.
                enforcedFinding.hint = "remove the pragma, or take \(id) out of enforced in \(config)"
                findings.append(enforcedFinding)
            }
        }
        return findings
    }
}
