import DockerfileSyntax

/// SB013: `CMD` or `ENTRYPOINT` in shell form runs the program under `/bin/sh -c`: the shell
/// is PID 1, signals such as SIGTERM from `docker stop` never reach the program, and it is
/// killed after the timeout. An `ENTRYPOINT` in shell form also ignores `CMD` and
/// `docker run` arguments. A `CMD` in shell form that starts with `exec` is left alone: the
/// shell replaces itself with the program, which then gets the signals.
///
/// Source: hadolint DL3025 ("Use arguments JSON notation for CMD and ENTRYPOINT arguments");
/// Dockerfile reference, "Shell and exec form" and "ENTRYPOINT".
struct SB013ShellFormCommand: LintRule {
    let id = "SB013"
    let name = "shell-form-command"
    let severity = LintSeverity.warning
    let summary = "CMD or ENTRYPOINT is written in shell form."
    let hint =
        #"write it in exec form, e.g. CMD ["node", "server.js"]; use an entrypoint script that ends in exec "$@" when a shell is needed"#
    let triggeringExamples = [
        "CMD node server.js\n",
        "FROM debian:bookworm-slim\nENTRYPOINT /usr/local/bin/app --serve\n",
    ]
    let nonTriggeringExamples = [
        "CMD [\"node\", \"server.js\"]\n",
        "ENTRYPOINT [\"/usr/local/bin/app\"]\nCMD [\"--serve\"]\n",
        "HEALTHCHECK CMD curl -fsS http://127.0.0.1/healthz || exit 1\n",
        "CMD exec /app --port \"$PORT\"\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.compactMap { entry in
            let instruction = entry.instruction
            guard entry.keyword == .cmd || entry.keyword == .entrypoint, case .shell(let command) = instruction.command,
                !command.text.isEmpty
            else { return nil }
            // `exec PROGRAM` replaces the shell, so the program is PID 1 and gets the signals;
            // a shell-form ENTRYPOINT still drops CMD and `docker run` arguments.
            guard command.text.hasPrefix("exec ") else {
                return finding(
                    "\(entry.kind) in shell form runs under /bin/sh -c, which does not pass signals on",
                    at: instruction.location(of: command))
            }
            guard entry.keyword == .entrypoint else { return nil }
            return finding(
                "ENTRYPOINT in shell form ignores CMD and docker run arguments", at: instruction.location(of: command))
        }
    }
}
