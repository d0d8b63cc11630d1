import DockerfileSyntax

/// SB022: `zypper install` (`zypper in`) names packages without a version constraint
/// (`NAME=VERSION`, or a `>=`, `<=`, `>` or `<` bound), so each build installs whatever
/// version the repositories hold that day. Patterns, patches and products (`-t pattern`),
/// `.rpm` files and variable references are not checked.
///
/// Source: hadolint DL3037 ("Specify version with zypper install -y <package>=<version>"),
/// which reads constraints the same way; zypper docs, zypper(8), "install" (NAME OP EDITION).
struct SB022ZypperInstallWithoutPins: LintRule {
    let id = "SB022"
    let name = "zypper-install-without-pins"
    let severity = LintSeverity.warning
    let summary = "zypper install names packages without =version pins."
    let hint = "pin every package as NAME=VERSION (zypper search -s NAME shows the versions)"
    let triggeringExamples = [
        "FROM opensuse/leap:15.6\nRUN zypper --non-interactive install git && zypper clean --all\n",
        "RUN zypper -n in --no-recommends curl=8.6.0-150600.4.6.1 tar\n",
    ]
    let nonTriggeringExamples = [
        "RUN zypper -n install curl=8.6.0-150600.4.6.1 'tar>=1.34'\n",
        "RUN zypper -n install -t pattern devel_basis\n",
        "RUN zypper -n install ./tool-1.2.3-1.x86_64.rpm && zypper refresh\n",
    ]

    /// zypper's global options and those of `install` that take a value.
    private static let valuedOptions: Set<String> = [
        "-c", "--config", "-R", "--root", "-D", "--reposd-dir", "-C", "--cache-dir", "--raw-cache-dir",
        "--solv-cache-dir", "--pkg-cache-dir", "-p", "--plus-repo", "--plus-content", "--userdata", "-r", "--repo",
        "--from", "-t", "--type", "--download",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let zypper = PackageCommand(command, programs: ["zypper"], valuedOptions: Self.valuedOptions),
                let action = zypper.action, action == "install" || action == "in",
                (zypper.value(of: ["-t", "--type"]) ?? "package") == "package"
            else { return nil }
            return ("zypper \(action)", zypper.operands)
        } isPinned: {
            $0.contains { "=<>".contains($0) } || $0.hasSuffix(".rpm") || $0.contains("$")
        }
    }
}
