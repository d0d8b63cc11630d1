import DockerfileSyntax

/// SB021: a `RUN` runs `dnf install`, `yum install` or `microdnf install` but does not clean
/// the package cache afterwards (`dnf clean all`, or removing `/var/cache/dnf`,
/// `/var/cache/yum` or dnf5's `/var/cache/libdnf5`), so repository metadata and downloaded
/// packages stay in the layer. A cache or tmpfs mount on one of those folders keeps them out
/// of the layer too.
///
/// Graded `info` as SB004 (apt's lists) is: the layer is larger, the build is not less
/// reproducible; hadolint grades its rules `warning`.
///
/// Source: hadolint DL3040 ("dnf clean all missing after dnf command", dnf and microdnf) and
/// DL3032 (the same for yum); dnf docs, "Clean Command".
struct SB021DnfCacheNotCleaned: LintRule {
    let id = "SB021"
    let name = "dnf-cache-not-cleaned"
    let severity = LintSeverity.info
    let summary = "A RUN that installs with dnf, yum or microdnf does not clean the package cache in the same RUN."
    let hint = "end the same RUN with dnf clean all (yum clean all, microdnf clean all), or mount a cache on /var/cache/dnf"
    let triggeringExamples = [
        "FROM fedora:40\nRUN dnf install -y git-2.46.0\n",
        "RUN yum install -y tar-1.34 && yum makecache\n",
        "RUN dnf clean all && microdnf install -y tar-1.34\n",
    ]
    let nonTriggeringExamples = [
        "RUN dnf install -y git-2.46.0 && dnf clean all\n",
        "RUN yum -y install tar-1.34 && rm -rf /var/cache/yum\n",
        "RUN microdnf install -y tar-1.34 && microdnf clean all\n",
        "RUN --mount=type=cache,target=/var/cache/dnf dnf install -y git-2.46.0\n",
    ]

    private static let cacheFolders = ["/var/cache/dnf", "/var/cache/yum", "/var/cache/libdnf5"]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            let cached = script.mounts.contains { mount in
                Self.cacheFolders.contains(mount.target ?? "")
            }
            guard !cached else { continue }
            let cleansCache = { (later: ShellScript.Command) -> Bool in
                if let dnf = PackageCommand.dnf(later), dnf.action == "clean", dnf.operands.first?.text == "all" { return true }
                return later.program == "rm"
                    && later.arguments.contains { argument in Self.cacheFolders.contains { argument.text.hasPrefix($0) } }
            }
            for (command, isFollowed) in script.commands(followedBy: cleansCache) {
                guard !isFollowed, let dnf = PackageCommand.dnf(command), dnf.action == "install", let install = dnf.subcommand
                else { continue }
                findings.append(
                    finding("\(dnf.program) install without cleaning its cache in the same RUN", at: install.location))
            }
        }
        return findings
    }
}
