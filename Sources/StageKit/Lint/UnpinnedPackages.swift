/// The walk the package-pin rules share (SB003 apt-get, SB018 apk, SB020 dnf, SB022 zypper,
/// SB024 npm, SB025 gem): every command of every `RUN` (an `ONBUILD RUN`'s too), the ones that
/// install packages, and for each one finding that names every package it leaves unpinned, at
/// the first of them.
extension LintRule {
    /// - Parameters:
    ///   - document: The Dockerfile.
    ///   - install: For a command that installs packages, how the message names it (`apt-get
    ///     install`) and its package words; `nil` for any other command.
    ///   - isPinned: Whether a package word pins a version, or cannot be judged (a variable
    ///     reference, a local file).
    /// - Returns: `INSTALL without a version pin for a, b` at the first unpinned word, per command.
    func unpinnedPackageFindings(
        in document: DockerfileDocument, install: (ShellScript.Command) -> (name: String, packages: [ShellScript.Word])?,
        isPinned: (String) -> Bool
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let (name, packages) = install(command) else { continue }
                let unpinned = packages.filter { !isPinned($0.text) }
                guard let first = unpinned.first else { continue }
                let names = unpinned.map(\.text).joined(separator: ", ")
                findings.append(finding("\(name) without a version pin for \(names)", at: first.location))
            }
        }
        return findings
    }
}
