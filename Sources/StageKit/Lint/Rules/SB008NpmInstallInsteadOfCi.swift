import DockerfileSyntax

/// SB008: `npm install` without package names installs from `package.json` and may resolve
/// new versions and rewrite `package-lock.json`; `npm ci` installs exactly what the lockfile
/// says and fails when it is out of date. `npm install` of named packages is left alone:
/// SB024 checks their versions.
///
/// Source: npm docs, "npm ci" ("a clean install … for automated environments"); hadolint
/// has no equivalent (DL3016, SB024's, checks versions of named npm packages).
struct SB008NpmInstallInsteadOfCi: LintRule {
    let id = "SB008"
    let name = "npm-install-instead-of-ci"
    let severity = LintSeverity.warning
    let summary = "npm install installs a project's dependencies where npm ci belongs."
    let hint = "copy package-lock.json into the image and run npm ci (npm ci --omit=dev for production)"
    let triggeringExamples = [
        "RUN npm install\n",
        "RUN npm i --omit=dev\n",
        "RUN cd /app && npm install --production --no-audit\n",
        "RUN <<EOF\nset -eux\nnpm --prefix /app install\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN npm ci --omit=dev\n",
        "RUN npm install -g npm@10.8.2\n",
        "RUN npm install --save-exact express@4.19.2\n",
        "RUN --mount=type=cache,target=/root/.npm npm ci\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let npm = PackageCommand.npm(command), let subcommand = npm.subcommand,
                    PackageCommand.npmInstallAliases.contains(subcommand.text), npm.operands.isEmpty
                else { continue }
                findings.append(
                    finding("npm \(subcommand.text) resolves dependencies again instead of npm ci", at: subcommand.location))
            }
        }
        return findings
    }
}
