import DockerfileSyntax

/// SB036: an exec-form `CMD`, `ENTRYPOINT` or `HEALTHCHECK` holds a variable reference
/// (`["/${MAIN_ENTRY}"]`, `["app", "--port", "$PORT"]`). The exec form runs without a shell and
/// the builder does not expand these instructions, so the process gets the text `${MAIN_ENTRY}`
/// as written. Templates make this easy to get wrong: a parameter looks like it reaches the
/// command.
///
/// Not judged: an exec form that runs a shell with `-c` (`["sh", "-c", "exec app $PORT"]`: the
/// shell expands it), also behind an init wrapper (`["tini", "--", "sh", "-c", …]`), and a
/// `CMD` whose stage's `ENTRYPOINT` is such a shell (its elements are the shell's script, as
/// smlx/goodwe-exporters writes it).
///
/// Source: Dockerfile reference, "Shell and exec form" ("the exec form doesn't invoke a command
/// shell ... variable substitution doesn't happen") and "Environment replacement" (the
/// instructions that expand variables; CMD, ENTRYPOINT and HEALTHCHECK are not among them).
struct SB036VariableInExecForm: LintRule {
    let id = "SB036"
    let name = "variable-in-exec-form"
    let severity = LintSeverity.warning
    let summary = "An exec-form CMD, ENTRYPOINT or HEALTHCHECK holds a $VARIABLE, which nothing expands."
    let hint = #"write the value itself, or run a shell that expands it: ["sh", "-c", "exec /app --port \"$PORT\""]"#
    let triggeringExamples = [
        "FROM alpine:3.20\nARG MAIN_ENTRY=app\nENTRYPOINT [\"/${MAIN_ENTRY}\"]\n",
        "FROM alpine:3.20\nENV PORT=8080\nCMD [\"/app\", \"--port\", \"$PORT\"]\n",
        "FROM alpine:3.20\nHEALTHCHECK CMD [\"wget\", \"-qO-\", \"http://127.0.0.1:${PORT}/healthz\"]\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20\nCMD [\"sh\", \"-c\", \"exec /app --port $PORT\"]\n",
        "FROM alpine:3.20\nENTRYPOINT [\"/bin/sh\", \"-ec\"]\nCMD [\"exec /${BINARY}\"]\n",
        "FROM alpine:3.20\nCMD /app --port $PORT\n",
        "FROM alpine:3.20\nCMD [\"/app\", \"--price\", \"5$\"]\n",
        "FROM alpine:3.20\nENTRYPOINT [\"/sbin/tini\", \"--\", \"/bin/sh\", \"-c\", \"exec /app --port \\\"$PORT\\\"\"]\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for (index, entry) in document.entries.enumerated() {
            let command = document.containerCommand(of: entry)
            guard case .exec(let words) = command, !Self.runsShellScript(words.map(\.text)) else { continue }
            if entry.keyword == .cmd, Self.entrypointIsShellScript(before: index, in: document) { continue }
            for word in words where Self.referencesVariable(word.text) {
                findings.append(
                    finding(
                        "\(entry.kind) in exec form passes \(word.text) as written: no shell expands it",
                        at: entry.instruction.location(of: word)))
                break
            }
        }
        return findings
    }

    /// `["sh", "-c", …]`, another shell with `-c` in an option cluster, or such a shell behind
    /// a wrapper (`["/sbin/tini", "--", "sh", "-c", …]`, `dumb-init`, `env`).
    private static func runsShellScript(_ words: [String]) -> Bool {
        words.indices.contains { index in
            let program = words[index].split(separator: "/").last.map(String.init) ?? ""
            return ShellScript.shells.contains(program)
                && words[(index + 1)...].contains(where: ShellScript.Command.isShellCommandFlag)
        }
    }

    /// Whether the `ENTRYPOINT` the stage's image ends with (its own, else its base stage's)
    /// is a shell given `-c`: `CMD`'s elements are then its script.
    private static func entrypointIsShellScript(before index: Int, in document: DockerfileDocument) -> Bool {
        guard let stage = document.stageIndex(ofEntry: index) else { return false }
        for stageIndex in document.stageChain(of: stage) {
            let entrypoint = document.stages[stageIndex].entryIndices.last { document.entries[$0].keyword == .entrypoint }
            guard let entrypoint else { continue }
            guard case .exec(let words) = document.entries[entrypoint].instruction.command else { return false }
            return runsShellScript(words.map(\.text))
        }
        return false
    }

    /// A `$NAME` or `${…}` reference.
    private static func referencesVariable(_ text: String) -> Bool {
        var rest = text[...]
        while let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            if let next = rest.first, next == "{" || next == "_" || (next.isASCII && next.isLetter) { return true }
        }
        return false
    }
}
