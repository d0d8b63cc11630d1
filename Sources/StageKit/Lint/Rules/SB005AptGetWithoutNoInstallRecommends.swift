import DockerfileSyntax

/// SB005: `apt-get install` without `--no-install-recommends` also installs every package
/// the named ones recommend: more to download, more to patch, and a set that changes when a
/// recommendation changes. `-o APT::Install-Recommends=false` counts as the flag.
///
/// Source: hadolint DL3015 ("Avoid additional packages by specifying
/// --no-install-recommends"); Docker docs, "Building best practices", section "apt-get".
struct SB005AptGetWithoutNoInstallRecommends: LintRule {
    let id = "SB005"
    let name = "apt-get-install-recommends"
    let severity = LintSeverity.info
    let summary = "apt-get install runs without --no-install-recommends."
    let hint = "add --no-install-recommends and name every package the image needs"
    let triggeringExamples = [
        "RUN apt-get install -y curl=7.88.1-10+deb12u5\n",
        "RUN apt install -y curl=7.88.1-10+deb12u5\n",
        "RUN <<EOF\nset -eux\napt-get -qq install -y \\\n  curl=7.88.1-10+deb12u5\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5\n",
        "RUN apt-get -o APT::Install-Recommends=false install -y curl=7.88.1-10+deb12u5\n",
        "RUN apt-get update\n",
        "RUN apt-get install -f\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), apt.action == "install", !apt.operands.isEmpty,
                    let word = apt.subcommand
                else { continue }
                let offByOption = apt.configuration.contains { value in
                    let parts = value.split(separator: "=", maxSplits: 1)
                    return parts.count == 2 && parts[0].lowercased() == "apt::install-recommends"
                        && ["false", "0", "no", "off"].contains(parts[1].lowercased())
                }
                guard !apt.options.contains("--no-install-recommends"), !offByOption else { continue }
                findings.append(finding("\(apt.program) install without --no-install-recommends", at: word.location))
            }
        }
        return findings
    }
}
