import DockerfileSyntax

/// SB025: `gem install` (`gem i`) names gems without `-v VERSION` (`--version`) or the
/// `NAME:VERSION` form, so each build installs the newest release of that day. Local `.gem`
/// files and variable references are not checked; the build flags after `--` are not gems.
///
/// Source: hadolint DL3028 ("Pin versions in gem install"); RubyGems docs, "gem install"
/// (`-v`, `GEMNAME:VERSION`).
struct SB025GemInstallWithoutVersion: LintRule {
    let id = "SB025"
    let name = "gem-install-without-version"
    let severity = LintSeverity.warning
    let summary = "gem install names gems without -v or :version pins."
    let hint = "pin every gem as NAME:VERSION, or give the one gem -v VERSION, e.g. gem install bundler -v 2.5.22"
    let triggeringExamples = [
        "FROM ruby:3.3-slim\nRUN gem install bundler\n",
        "RUN gem install --no-document rails:7.2.1 puma -- --with-cflags=-O2\n",
        "RUN gem i -N --source https://rubygems.org rake\n",
    ]
    let nonTriggeringExamples = [
        "RUN gem install bundler -v 2.5.22 --no-document\n",
        "RUN gem install --no-document rails:7.2.1 'puma:6.4.3' -- --with-cflags=-O2\n",
        "RUN gem install --version=2.5.22 bundler && gem install ./vendor/tool-1.2.3.gem\n",
        "RUN gem update --system 3.5.22\n",
    ]

    /// `gem install`'s options that take the next word as their value.
    private static let valuedOptions: Set<String> = [
        "-v", "--version", "-i", "--install-dir", "-n", "--bindir", "-s", "--source", "-p", "--http-proxy",
        "--platform", "--build-root", "-P", "--trust-policy",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let gem = PackageCommand(command, programs: ["gem"], valuedOptions: Self.valuedOptions),
                let action = gem.action, action == "install" || action == "i", !gem.has(["-v", "--version"])
            else { return nil }
            return ("gem \(action)", gem.operands)
        } isPinned: {
            $0.contains(":") || $0.hasSuffix(".gem") || $0.contains("$")
        }
    }
}
