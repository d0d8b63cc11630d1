import DockerfileSyntax

/// SB004: a `RUN` runs `apt-get update` but does not remove `/var/lib/apt/lists` afterwards,
/// so the package lists (tens of MB that differ from day to day) stay in the layer. A cache or
/// tmpfs mount on `/var/lib/apt/lists` (or `/var/lib/apt`) keeps them out of the layer too.
///
/// Source: hadolint DL3009 ("Delete the apt-get lists after installing something"); Docker
/// docs, "Building best practices", section "apt-get".
struct SB004AptListsNotRemoved: LintRule {
    let id = "SB004"
    let name = "apt-lists-not-removed"
    let severity = LintSeverity.info
    let summary = "A RUN that runs apt-get update does not remove /var/lib/apt/lists in the same RUN."
    let hint = "end the same RUN with rm -rf /var/lib/apt/lists/*, or mount a cache on /var/lib/apt/lists"
    let triggeringExamples = [
        "RUN apt-get update && apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5\n",
        "RUN <<EOF\nset -eux\napt-get update\napt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5\nEOF\n",
        "RUN apt-get update\nRUN rm -rf /var/lib/apt/lists/*\n",
        "RUN rm -rf /var/lib/apt/lists/* && apt-get update\n",
    ]
    let nonTriggeringExamples = [
        #"""
        RUN apt-get update \
            && apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5 \
            && rm -rf /var/lib/apt/lists/*
        """#,
        #"""
        RUN --mount=type=cache,target=/var/lib/apt/lists,sharing=locked \
            apt-get update && apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5
        """#,
        "RUN <<EOF\nset -eux\napt-get update\napt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5\nrm -rf \"/var/lib/apt/lists\"/*\nEOF\n",
        "RUN apt-get clean\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.runScripts.compactMap { script in
            let cached = script.mounts.contains { mount in
                ["/var/lib/apt/lists", "/var/lib/apt"].contains(mount.target ?? "")
            }
            guard !cached else { return nil }
            let removesLists = { (later: ShellScript.Command) -> Bool in
                if let cleanup = AptGetCommand(later), cleanup.action == "dist-clean" { return true }
                return later.program == "rm" && later.arguments.contains { $0.text.hasPrefix("/var/lib/apt/lists") }
            }
            for (command, isFollowed) in script.commands(followedBy: removesLists) {
                guard let apt = AptGetCommand(command), apt.action == "update", let word = apt.subcommand else { continue }
                return isFollowed
                    ? nil
                    : finding("\(apt.program) update without removing /var/lib/apt/lists in the same RUN", at: word.location)
            }
            return nil
        }
    }
}
