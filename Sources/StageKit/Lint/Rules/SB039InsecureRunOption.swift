import DockerfileSyntax

/// SB039: a `RUN` (or an `ONBUILD RUN`, which every image built from this one runs) asks for `--security=insecure` (no sandbox, every capability; the builder
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
        "RUN --network=\"host\" echo hi\n",
        "ONBUILD RUN --security=insecure make install\n",
    ]
    let nonTriggeringExamples = [
        "RUN --network=none make test\n",
        "RUN --security=sandbox make\n",
        "RUN --network=default apt-get update\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            let instruction = script.run
            guard let run = instruction.asRun else { continue }
            for (flag, word, value, reason) in [
                ("security", run.security, "insecure", "runs without the sandbox, with every capability"),
                ("network", run.network, "host", "uses the build host's network"),
            ] {
                guard let word, document.unquoted(word.text).lowercased() == value else { continue }
                // A quoted value has no place of its own: the flag's start stands for it.
                let flagIndex = instruction.flags.indices.first { instruction.flag(at: $0).name == flag }
                var location = instruction.location(of: word)
                if word.range == nil, let flagIndex, instruction.flagRanges.indices.contains(flagIndex) {
                    location = instruction.lineMap.location(ofOffset: instruction.flagRanges[flagIndex].lowerBound)
                }
                let keyword = script.entry.keyword == .onbuild ? "ONBUILD RUN" : "RUN"
                findings.append(
                    finding("\(keyword) --\(flag)=\(value) \(reason), so its result depends on the build host", at: location))
            }
        }
        return findings
    }
}
