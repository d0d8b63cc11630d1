import DockerfileSyntax

/// SB011: `git clone` is not followed, in the same `RUN`, by a checkout of a full commit id
/// (40 hex digits, or 64 for SHA-256 repositories), nor given one with `--revision`. A branch
/// or tag can point at another commit tomorrow. `git checkout`, `git switch --detach`,
/// `git reset --hard` and `git fetch` of a commit count; variables with a known `ARG` or `ENV`
/// value are expanded.
///
/// Source: git docs, "git-clone --revision" (git 2.49) and "git-checkout"; Docker docs,
/// "Building best practices" (reproducible inputs). hadolint has no equivalent.
struct SB011GitCloneWithoutCommit: LintRule {
    let id = "SB011"
    let name = "git-clone-without-commit"
    let severity = LintSeverity.warning
    let summary = "git clone is not followed by a checkout of a fixed 40-hex commit."
    let hint = "check out a full commit id: git -C DIR checkout <40-hex commit>, or git clone --revision=<commit> (git 2.49+)"
    let triggeringExamples = [
        "RUN git clone https://github.com/example/tool.git /src/tool\n",
        "RUN git clone --depth 1 --branch v1.2.3 https://github.com/example/tool.git /src/tool\n",
        "RUN git clone https://github.com/example/tool.git /src/tool && cd /src/tool && git checkout main\n",
        "RUN <<EOF\nset -eux\ngit clone https://github.com/example/tool.git /src/tool\nmake -C /src/tool\nEOF\n",
    ]
    let nonTriggeringExamples = [
        #"""
        RUN git clone https://github.com/example/tool.git /src/tool \
            && git -C /src/tool checkout 1f8b943c7656eba8b5f8169fb04a61734c9e8f72
        """#,
        "RUN git clone --revision=1f8b943c7656eba8b5f8169fb04a61734c9e8f72 https://github.com/example/tool.git /src/tool\n",
        #"""
        ARG TOOL_COMMIT=1f8b943c7656eba8b5f8169fb04a61734c9e8f72
        RUN <<EOF
        set -eux
        git clone https://github.com/example/tool.git /src/tool
        cd /src/tool
        git -c advice.detachedHead=false checkout "${TOOL_COMMIT}"
        EOF
        """#,
    ]

    /// Git's global options that take the next word as their value.
    private static let globalValuedOptions: Set<String> = ["-C", "-c", "--git-dir", "--work-tree", "--namespace"]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            let variables = document.variables(before: script.entryIndex)
            func isCommit(_ text: String) -> Bool {
                let value = (text.contains("$") ? LintDocument.expand(text, with: variables) : text) ?? ""
                return (value.count == 40 || value.count == 64) && value.allSatisfy(\.isHexDigit)
            }
            for (command, followers) in script.commandsWithFollowers {
                guard let (subcommand, arguments) = Self.gitSubcommand(command), subcommand.text == "clone" else { continue }
                let revision = arguments.indices.contains { index in
                    let text = arguments[index].text
                    if text.hasPrefix("--revision=") { return isCommit(String(text.dropFirst("--revision=".count))) }
                    return text == "--revision" && index + 1 < arguments.count && isCommit(arguments[index + 1].text)
                }
                let checkedOut = followers.contains { later in
                    guard let (action, rest) = Self.gitSubcommand(later),
                        ["checkout", "switch", "reset", "fetch"].contains(action.text)
                    else { return false }
                    return rest.contains { isCommit($0.text) }
                }
                if revision || checkedOut { continue }
                let url = arguments.first { !$0.text.hasPrefix("-") }.map { " of \($0.text)" } ?? ""
                findings.append(
                    finding("git clone\(url) is not followed by a checkout of a fixed commit", at: subcommand.location))
            }
        }
        return findings
    }

    /// The subcommand word and its arguments of a `git` command, git's global options skipped.
    private static func gitSubcommand(_ command: ShellScript.Command) -> (ShellScript.Word, [ShellScript.Word])? {
        guard command.program == "git" else { return nil }
        let arguments = Array(command.arguments)
        var index = 0
        while index < arguments.count, arguments[index].text.hasPrefix("-") {
            index += globalValuedOptions.contains(arguments[index].text) ? 2 : 1
        }
        guard index < arguments.count else { return nil }
        return (arguments[index], Array(arguments[(index + 1)...]))
    }
}
