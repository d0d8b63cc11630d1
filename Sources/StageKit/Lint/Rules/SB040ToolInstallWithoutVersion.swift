import DockerfileSyntax

/// SB040: a tool installer names a package without a version, so each build installs whatever
/// is newest that day: `pipx install NAME` (pin `NAME==VERSION`), `uv tool install NAME` (pin
/// `NAME==VERSION` or `NAME@VERSION`, not `@latest`; or `--from NAME==VERSION`) and `luarocks
/// install NAME` (give the version after the name). A range (`black>=24`) is no pin.
///
/// Not judged: local paths and archives (`.`, `./dist/tool.whl`), URLs, and operands with a
/// variable reference (the value may pin).
///
/// Source: pipx docs, "pipx install" (a package spec as pip reads it); uv docs, "uv tool
/// install" (`ruff@0.6.0`, `ruff==0.6.0`); luarocks docs, "luarocks install" (`NAME [VERSION]`).
/// hadolint has no equivalent.
struct SB040ToolInstallWithoutVersion: LintRule {
    let id = "SB040"
    let name = "tool-install-without-version"
    let severity = LintSeverity.warning
    let summary = "pipx install, uv tool install or luarocks install names a package without a version."
    let hint = "pin it: pipx install NAME==VERSION, uv tool install NAME@VERSION, luarocks install NAME VERSION"
    let triggeringExamples = [
        "RUN pipx install pre-commit\n",
        "RUN uv tool install ruff\n",
        "RUN luarocks install lua-resty-http\n",
        "RUN pipx install --include-deps ansible\n",
        "RUN uv tool install ruff@latest\n",
        "RUN pipx install 'black>=24'\n",
    ]
    let nonTriggeringExamples = [
        "RUN pipx install pre-commit==3.7.1\n",
        "RUN uv tool install ruff@0.6.0 && uv tool install black==24.4.2\n",
        "RUN luarocks install lua-resty-http 0.17.2-0\n",
        "RUN pipx install ./dist/tool-1.0-py3-none-any.whl\n",
        "RUN pipx install \"$TOOL_SPEC\"\n",
        "RUN uv tool install --from 'ruff==0.5.0' ruff\n",
    ]

    /// Options of the three installers that take the next word as their value.
    private static let valuedOptions: Set<String> = [
        "--python", "--index-url", "--pip-args", "--suffix", "--spec", "--with", "--from", "-p", "--index",
        "--extra-index-url", "--tree", "--server", "--only-server", "--deps-mode",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let install = Self.install(command) else { continue }
                let operands = install.command.operands
                if install.tool == "luarocks" {
                    guard let package = operands.first, operands.count < 2, !Self.isExempt(package.text) else { continue }
                    findings.append(finding("luarocks install \(package.text) names no version", at: package.location))
                    continue
                }
                // uv's `--from SPEC` names what is installed; the operand is then the tool's name.
                if let from = install.command.value(of: ["--from"]) {
                    guard !Self.isExempt(from) && !Self.isPinned(from), let package = operands.first else { continue }
                    findings.append(
                        finding("\(install.tool) install --from \(from) is not pinned to one version", at: package.location))
                    continue
                }
                for package in operands where !Self.isExempt(package.text) && !Self.isPinned(package.text) {
                    findings.append(
                        finding("\(install.tool) install \(package.text) is not pinned to one version", at: package.location))
                }
            }
        }
        return findings
    }

    /// The installer and its `install` command read, for the three tools.
    private static func install(_ command: ShellScript.Command) -> (tool: String, command: PackageCommand)? {
        guard let program = command.program else { return nil }
        switch program {
        case "pipx", "luarocks":
            guard let read = PackageCommand(command, programs: [program], valuedOptions: valuedOptions), read.action == "install"
            else { return nil }
            return (program, read)
        case "uv":
            guard let read = PackageCommand(command, programs: ["uv"], valuedOptions: valuedOptions), read.action == "tool",
                read.operands.first?.text == "install"
            else { return nil }
            var tool = read
            tool.operands.removeFirst()
            return ("uv tool", tool)
        default:
            return nil
        }
    }

    /// `NAME==VERSION`, `NAME===VERSION` or uv's `NAME@VERSION` (not `@latest`).
    private static func isPinned(_ spec: String) -> Bool {
        if spec.contains("==") { return true }
        guard let at = spec.lastIndex(of: "@"), !spec.contains("://") else { return false }
        return spec[spec.index(after: at)...].lowercased() != "latest"
    }

    /// A path, an archive, a URL or a variable: not a package name this rule can judge.
    private static func isExempt(_ operand: String) -> Bool {
        operand.contains("$") || operand.contains("/") || operand.hasPrefix(".") || operand.contains("://")
            || [".whl", ".tar.gz", ".zip", ".rock", ".rockspec"].contains { operand.hasSuffix($0) }
    }
}
