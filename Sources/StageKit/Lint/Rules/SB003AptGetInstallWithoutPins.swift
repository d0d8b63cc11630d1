import DockerfileSyntax

/// SB003: `apt-get install` (or `apt install`) names packages without `=VERSION`, so each
/// build installs whatever version the archive holds that day. Local `.deb` files and
/// variable references are not checked.
///
/// Source: hadolint DL3008 ("Pin versions in apt-get install"); Docker docs, "Building best
/// practices", section "apt-get".
struct SB003AptGetInstallWithoutPins: LintRule {
    let id = "SB003"
    let name = "apt-get-install-without-pins"
    let severity = LintSeverity.warning
    let summary = "apt-get install names packages without =version pins."
    let hint =
        "pin every package as NAME=VERSION (apt-cache policy NAME shows the candidate); pin the archive too with snapshot.debian.org"
    let triggeringExamples = [
        #"""
        RUN apt-get update \
            && apt-get install -y --no-install-recommends curl \
            && rm -rf /var/lib/apt/lists/*
        """#,
        #"""
        RUN <<EOF
        set -eux
        apt-get update
        apt-get install -y --no-install-recommends \
            ca-certificates=20230311 \
            git
        rm -rf /var/lib/apt/lists/*
        EOF
        """#,
        "RUN DEBIAN_FRONTEND=noninteractive apt-get -y install --no-install-recommends git\n",
        #"RUN ["/bin/sh", "-c", "apt-get install -y --no-install-recommends git"]"# + "\n",
        "RUN if [ -n \"$DEV\" ]; then apt install -y --no-install-recommends gdb; fi\n",
    ]
    let nonTriggeringExamples = [
        #"""
        RUN apt-get update \
            && apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5 \
            && rm -rf /var/lib/apt/lists/*
        """#,
        "RUN apt-get install -y --no-install-recommends ./vendor/tool_1.2.3_amd64.deb\n",
        "RUN echo 'apt-get install curl' > /etc/motd\n",
        "# apt-get install curl\nRUN true\n",
        "RUN <<EOF\n# apt-get install curl\napt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5\nEOF\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let apt = AptGetCommand(command), apt.action == "install" else { return nil }
            return ("\(apt.program) install", apt.operands)
        } isPinned: {
            $0.contains("=") || $0.hasSuffix(".deb") || $0.contains("$")
        }
    }
}
