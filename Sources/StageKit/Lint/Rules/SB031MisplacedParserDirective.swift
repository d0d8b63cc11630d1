import DockerfileSyntax

/// SB031: a comment line has the form of a parser directive (`# syntax=…`, `# escape=…` or
/// `# check=…`) but comes after an instruction, a comment or a blank line. BuildKit looks
/// for directives only at the very top of the file, so it reads this line as a comment:
/// the build uses the default frontend instead of the one `syntax` names, and `\` stays the
/// escape character.
///
/// Source: Dockerfile reference, "Parser directives" ("Once a comment, empty line or builder
/// instruction has been processed, BuildKit no longer looks for parser directives. Instead
/// it treats anything formatted as a parser directive as a comment"). hadolint has no
/// equivalent.
struct SB031MisplacedParserDirective: LintRule {
    let id = "SB031"
    let name = "misplaced-parser-directive"
    let severity = LintSeverity.warning
    let summary =
        "A # syntax=, # escape= or # check= directive comes after an instruction, comment or blank line; BuildKit reads it as a comment."
    let hint = "move the directive to the first lines of the file, before any comment, blank line or instruction"
    let triggeringExamples = [
        "# Build the app image.\n# syntax=docker/dockerfile:1\nFROM alpine:3.20\n",
        "\n# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\n",
        "FROM alpine:3.20\n  # syntax=docker/dockerfile:1.7\nRUN true\n",
    ]
    let nonTriggeringExamples = [
        "# syntax=docker/dockerfile:1\n# escape=\\\n\n# Build the app image.\nFROM alpine:3.20\n",
        "# check=skip=JSONArgsRecommended\n# syntax=docker/dockerfile:1\nFROM alpine:3.20\n",
        "FROM alpine:3.20\n# stagebuild ignore=SB013 the shell expands $PORT\nCMD node server.js --port $PORT\n",
        "FROM alpine:3.20\n# note: key=value pairs follow\nLABEL a=b\n",
    ]

    /// The directives BuildKit reads at the top of a file.
    private static let directiveNames: Set<String> = ["syntax", "escape", "check"]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        var directivesEnded = false
        for element in document.tree.elements {
            switch element.kind {
            case .directive:
                continue
            case .comment where directivesEnded:
                let line = element.text.prefix { $0 != "\n" && $0 != "\r\n" }
                let indentation = line.prefix { $0 == " " || $0 == "\t" }
                if let directive = ParserDirectives.directiveForm(of: String(line.dropFirst(indentation.count))),
                    Self.directiveNames.contains(directive.name)
                {
                    let location = SourceLocation(line: element.startLine, column: indentation.unicodeScalars.count + 1)
                    findings.append(
                        finding(
                            "# \(directive.name)= comes after the top of the file, so BuildKit reads it as a comment",
                            at: location))
                }
            default:
                break
            }
            directivesEnded = true
        }
        return findings
    }
}
