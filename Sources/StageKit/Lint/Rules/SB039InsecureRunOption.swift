import DockerfileSyntax

/// SB039: a `RUN` asks for `--security=insecure` (no sandbox, every capability; the builder
/// must be started with the `security.insecure` entitlement) or `--network=host` (the builder
/// host's network and its services). Either makes the step's result depend on the machine that
/// builds, not on the Dockerfile: what a reproducible build must not do.
///
/// Source: Dockerfile reference, "RUN --security" and "RUN --network"; BuildKit's entitlements
/// (`network.host`, `security.insecure`).
struct SB039InsecureRunOption: LintRule {
    let id = "SB039"
    let name = "insecure-run-option"
    let severity = LintSeverity.warning
    let summary = "RUN uses --security=insecure or --network=host, so its result depends on the build host."
    let hint =
        "build without it: fetch what the step needs in an earlier step or stage, and run tests that need privileges outside the build"
    let triggeringExamples = [
        "RUN --security=insecure mount -t tmpfs none /mnt\n",
        "RUN --network=host curl -fsS http://127.0.0.1:8080/health\n",
    ]
    let nonTriggeringExamples = [
        "RUN --network=none make test\n",
        "RUN --security=sandbox make\n",
        "RUN --network=default apt-get update\n",
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for entry in document.entries where entry.kind == "RUN" {
            let instruction = entry.instruction
            for (flag, value, reason) in [
                ("security", "insecure", "runs without the sandbox, with every capability"),
                ("network", "host", "uses the build host's network"),
            ] {
                guard let word = instruction.flagWord(flag), document.unquoted(word.text).lowercased() == value else { continue }
                findings.append(
                    finding(
                        "RUN --\(flag)=\(value) \(reason), so its result depends on the build host",
                        at: instruction.location(of: word)))
            }
        }
        return findings
    }
}
