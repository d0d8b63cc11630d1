import DockerfileSyntax

/// SB024: `npm install NAME` (global with `-g`, or into a project) names a package without
/// `@VERSION`, or with `@latest`, so each build may install another version. A Git URL counts
/// as pinned with a `#COMMIT` (or `#semver:`) suffix; local folders, tarballs and variable
/// references are not checked. `npm install` without names is SB008's.
///
/// Source: hadolint DL3016 ("Pin versions in npm"), which reads packages the same way; npm
/// docs, "npm install" (`<name>@<version>`, `<git remote url>#<commit-ish>`).
struct SB024NpmInstallWithoutVersion: LintRule {
    let id = "SB024"
    let name = "npm-install-without-version"
    let severity = LintSeverity.warning
    let summary = "npm install names packages without @version pins."
    let hint = "pin every package as NAME@VERSION, e.g. npm install -g typescript@5.6.2"
    let triggeringExamples = [
        "FROM node:20-bookworm-slim\nRUN npm install -g typescript\n",
        "RUN npm i -g npm@latest pnpm@9.12.0\n",
        "RUN npm install --global @angular/cli && npm cache clean --force\n",
        "RUN npm install --save-exact express\n",
        "RUN npm install -g git+https://github.com/example/tool.git\n",
    ]
    let nonTriggeringExamples = [
        "RUN npm install -g typescript@5.6.2 @angular/cli@18.2.8\n",
        "RUN npm install -g ./vendor/tool-1.2.3.tgz git+https://github.com/example/tool.git#1f8b943c\n",
        "RUN npm install -g \"pnpm@${PNPM_VERSION}\"\n",
        "RUN npm ci --omit=dev\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let npm = PackageCommand.npm(command), let subcommand = npm.subcommand,
                PackageCommand.npmInstallAliases.contains(subcommand.text)
            else { return nil }
            return ("npm \(subcommand.text)", npm.operands)
        } isPinned: {
            Self.isPinned($0)
        }
    }

    /// `NAME@VERSION` (`@SCOPE/NAME@VERSION`) other than `@latest`, a Git URL with `#`, a
    /// local folder or tarball, or a variable reference.
    private static func isPinned(_ package: String) -> Bool {
        if package.contains("$") { return true }
        if ["/", "./", "../", "~/"].contains(where: { package.hasPrefix($0) }) { return true }
        if [".tgz", ".tar.gz", ".tar"].contains(where: { package.hasSuffix($0) }) { return true }
        if package.contains("://") || package.hasPrefix("github:") { return package.contains("#") }
        let unscoped = package.hasPrefix("@") ? package.drop { $0 != "/" } : package[...]
        guard let at = unscoped.firstIndex(of: "@") else { return false }
        let version = unscoped[unscoped.index(after: at)...]
        return !version.isEmpty && version != "latest"
    }
}
