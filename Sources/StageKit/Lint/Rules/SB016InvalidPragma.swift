import DockerfileSyntax

/// SB016: an ignore pragma (`# stagebuild ignore=SBnnn[,SBnnn] REASON`) is malformed, names an
/// id that is not a stagebuild rule, gives no reason, reads a rule id as its reason (ids
/// separated by a space instead of a comma), or applies to no instruction because a blank
/// line, a parser directive or the end of the file follows it. Each would otherwise switch
/// off less than its author meant without a word. A comment is a pragma attempt when it
/// starts with `stagebuild` and then `ignore`, in any case. Well-formed ids of a pragma with
/// a problem still apply; a malformed pragma applies none.
///
/// The finding sits on the comment line, not on an instruction, so no pragma can switch it
/// off. Source: hadolint's `# hadolint ignore=DLnnnn` pragmas; SwiftLint's
/// `blanket_disable_command` and `invalid_swiftlint_command` rules.
struct SB016InvalidPragma: LintRule {
    let id = "SB016"
    let name = "invalid-pragma"
    let severity = LintSeverity.warning
    let summary = "An ignore pragma is malformed, names an unknown rule, gives no reason, or applies to no instruction."
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
    ]
    let nonTriggeringExamples = [
        "# stagebuild ignore=SB013 the shell expands $PORT\nCMD node server.js --port $PORT\n",
        "# Stagebuild IGNORE = sb003 , sb005 pinned by the snapshot date\nRUN apt-get install -y curl\n",
        "# stagebuild composes this file; do not edit\nFROM scratch\n",
        "# hadolint ignore=DL3008\nRUN apt-get install -y curl\n",
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for comment in document.pragmas {
            for problem in comment.pragma.problems {
                findings.append(finding(problem.message, at: SourceLocation(line: comment.line, column: problem.column)))
            }
            if comment.instructionLines == nil, !comment.pragma.ruleIDs.isEmpty {
                let message = "pragma applies to no instruction: a blank line or the end of the file follows it"
                findings.append(finding(message, at: SourceLocation(line: comment.line, column: comment.pragma.column)))
            }
        }
        return findings
    }
}
