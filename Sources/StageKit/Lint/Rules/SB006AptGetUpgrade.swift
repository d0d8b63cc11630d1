import DockerfileSyntax

/// SB006: `apt-get upgrade`, `dist-upgrade` or `full-upgrade` (or `apt upgrade`) upgrades
/// whatever the archive holds that day, so two builds of one Dockerfile differ. Take
/// updates by moving to a newer pinned base image instead.
///
/// Source: hadolint DL3005 ("Do not use apt-get dist-upgrade" / upgrade); Docker docs,
/// "Building best practices", section "apt-get".
struct SB006AptGetUpgrade: LintRule {
    let id = "SB006"
    let name = "apt-get-upgrade"
    let severity = LintSeverity.warning
    let summary = "apt-get upgrade or dist-upgrade upgrades unpinned packages."
    let hint = "pin a newer base image (by digest) instead; upgrade one package with install --only-upgrade NAME=VERSION"
    let triggeringExamples = [
        "RUN apt-get update && apt-get upgrade -y && rm -rf /var/lib/apt/lists/*\n",
        "RUN apt-get -y dist-upgrade\n",
        "RUN <<EOF\nset -eux\napt-get update\napt full-upgrade -y\nrm -rf /var/lib/apt/lists/*\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN apt-get install -y --no-install-recommends --only-upgrade openssl=3.0.15-1~deb12u1\n",
        "RUN echo \"run apt-get upgrade yourself\"\n",
        "RUN <<EOF\nset -eux\n# apt-get upgrade is left to the base image\napt-get update\nrm -rf /var/lib/apt/lists/*\nEOF\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), let word = apt.subcommand,
                    ["upgrade", "dist-upgrade", "full-upgrade"].contains(word.text)
                else { continue }
                findings.append(
                    finding("\(apt.program) \(word.text) installs whatever versions the archive holds today", at: word.location))
            }
        }
        return findings
    }
}
