import DockerfileSyntax

/// SB026: `cargo install` is not pinned twice over. It wants an exact version of each crate
/// from a registry (`--version 14.1.1`, or `ripgrep@14.1.1`; a requirement such as `~14.1`
/// picks the newest match that day), or `--rev COMMIT` for a `--git` source, and it wants
/// `--locked` (or `--frozen`) so the crate's own `Cargo.lock` fixes its dependencies: without
/// it cargo resolves them afresh and may build other versions than the crate was released
/// with. A `--path` source needs only `--locked`; variable references are not checked.
///
/// Source: Cargo docs, "cargo install" (`--version`: "if the version does not have a
/// requirement operator … will install exactly that version"; `--locked`: "cargo install
/// ignores the Cargo.lock file by default"). hadolint has no equivalent.
struct SB026CargoInstallWithoutVersionOrLocked: LintRule {
    let id = "SB026"
    let name = "cargo-install-without-version-or-locked"
    let severity = LintSeverity.warning
    let summary = "cargo install names a crate without an exact version, or runs without --locked."
    let hint = "give an exact version and --locked, e.g. cargo install --locked ripgrep@14.1.1 (--rev COMMIT for --git)"
    let triggeringExamples = [
        "FROM rust:1.81-slim-bookworm\nRUN cargo install ripgrep\n",
        "RUN cargo install --locked cargo-audit --version ~0.20\n",
        "RUN cargo install ripgrep@14.1.1\n",
        "RUN cargo +nightly install --locked --git https://github.com/example/tool.git --tag v1.0 tool\n",
        "RUN cargo install --path ./crates/cli --root /out\n",
    ]
    let nonTriggeringExamples = [
        "RUN cargo install --locked ripgrep@14.1.1\n",
        "RUN cargo install --locked --version 0.20.1 cargo-audit\n",
        "RUN cargo install --frozen --git https://github.com/example/tool.git --rev 1f8b943c7656eba8b5f8169fb04a61734c9e8f72\n",
        "RUN cargo install --locked --path ./crates/cli --root /out && cargo install --list\n",
    ]

    /// `cargo install`'s options that take the next word as their value.
    private static let valuedOptions: Set<String> = [
        "--version", "--vers", "--git", "--branch", "--tag", "--rev", "--path", "--root", "--index", "--registry",
        "-F", "--features", "--target", "--target-dir", "--profile", "-j", "--jobs", "--bin", "--example",
        "--config", "-Z", "--color", "--message-format", "--lockfile-path",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let cargo = PackageCommand(command, programs: ["cargo"], valuedOptions: Self.valuedOptions),
                    let install = cargo.subcommand, install.text == "install", !cargo.has(["--list"])
                else { continue }
                findings += versionFindings(cargo, install: install)
                if !cargo.has(["--locked", "--frozen"]) {
                    findings.append(
                        finding("cargo install without --locked resolves the crate's dependencies afresh", at: install.location))
                }
            }
        }
        return findings
    }

    /// The findings about what `cargo install` builds: each registry crate without an exact
    /// version, or a `--git` source without `--rev`.
    private func versionFindings(_ cargo: PackageCommand, install: ShellScript.Word) -> [LintFinding] {
        if cargo.has(["--path"]) { return [] }
        if cargo.has(["--git"]) {
            guard !cargo.has(["--rev"]) else { return [] }
            return [
                finding("cargo install --git without --rev builds whatever the branch or tag points at", at: install.location)
            ]
        }
        let requested = cargo.value(of: ["--version", "--vers"])
        return cargo.operands.compactMap { crate in
            let text = crate.text
            guard !text.contains("$") else { return nil }
            let version = text.firstIndex(of: "@").map { String(text[text.index(after: $0)...]) } ?? requested
            guard let version, Self.isExact(version) else {
                return finding("cargo install of \(text) without an exact version", at: crate.location)
            }
            return nil
        }
    }

    /// `MAJOR.MINOR.PATCH` without a requirement operator, or with `=`.
    private static func isExact(_ version: String) -> Bool {
        guard let first = version.first else { return false }
        return first == "=" || first.isNumber
    }
}
