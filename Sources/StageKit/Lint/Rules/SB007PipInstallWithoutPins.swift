import DockerfileSyntax

/// SB007: `pip install` (or `uv pip install`) names packages without `==VERSION`, or installs a requirements file
/// without `--require-hashes`, so each build resolves versions (or downloads files) afresh.
/// A constraints file (`-c`) counts as pinning; local paths and archives are not checked.
///
/// Source: hadolint DL3013 ("Pin versions in pip"); pip docs, "Secure installs"
/// (`--require-hashes`, hash-checking mode).
struct SB007PipInstallWithoutPins: LintRule {
    let id = "SB007"
    let name = "pip-install-without-pins"
    let severity = LintSeverity.warning
    let summary = "pip install names packages without == pins, or reads a requirements file without --require-hashes."
    let hint = "pin every package as NAME==VERSION, or install a requirements file with --hash lines using --require-hashes"
    let triggeringExamples = [
        "RUN uv pip install --system flask\n",
        "RUN pip install flask\n",
        "RUN pip3 install --no-cache-dir flask==3.0.3 requests\n",
        "RUN python3 -m pip install -r requirements.txt\n",
        "RUN pip install 'django>=4.2'\n",
        "RUN <<EOF\nset -eux\npython3 -m venv /opt/venv\n/opt/venv/bin/pip install --upgrade pip\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN uv pip install --system flask==3.0.3\n",
        "RUN pip install --no-cache-dir flask==3.0.3\n",
        "RUN pip install --no-cache-dir --require-hashes -r requirements.txt\n",
        "RUN pip install -c constraints.txt flask requests\n",
        "RUN pip install --no-deps .\n",
        "RUN pip --version && pip list\n",
    ]

    /// Options of `pip install` that take a value as the next word.
    private static let valuedOptions: Set<String> = [
        "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
        "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--platform", "--python-version",
        "--implementation", "--abi", "--trusted-host", "--src", "--upgrade-strategy", "--progress-bar", "--cache-dir",
        "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--cert", "--client-cert", "--global-option",
        "-C", "--config-settings", "--no-binary", "--only-binary", "--report", "--python",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let arguments = Self.installArguments(command) else { continue }
                findings += check(arguments)
            }
        }
        return findings
    }

    /// The words after `install` of `pip install`, `pip3 install`, `python -m pip install` or
    /// `uv pip install`.
    private static func installArguments(_ command: ShellScript.Command) -> [ShellScript.Word]? {
        guard let program = command.program else { return nil }
        var arguments = Array(command.arguments)
        let isPip = program.hasPrefix("pip") && program.dropFirst(3).allSatisfy { $0.isNumber || $0 == "." }
        let isPython = program.hasPrefix("python") && program.dropFirst(6).allSatisfy { $0.isNumber || $0 == "." }
        if program == "uv" {
            // `uv pip install` takes pip's requirement words (uv docs, "The pip interface").
            guard let pip = arguments.firstIndex(where: { !$0.text.hasPrefix("-") }), arguments[pip].text == "pip" else {
                return nil
            }
            arguments.removeFirst(pip + 1)
        } else if isPython {
            guard let module = arguments.firstIndex(where: { $0.text == "-m" }), module + 1 < arguments.count,
                arguments[module + 1].text == "pip"
            else { return nil }
            arguments.removeFirst(module + 2)
        } else if !isPip {
            return nil
        }
        guard let install = arguments.firstIndex(where: { !$0.text.hasPrefix("-") }), arguments[install].text == "install" else {
            return nil
        }
        return Array(arguments[(install + 1)...])
    }

    private func check(_ arguments: [ShellScript.Word]) -> [LintFinding] {
        var requirementFiles: [ShellScript.Word] = []
        var unpinned: [ShellScript.Word] = []
        var hasConstraints = false
        var requiresHashes = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            let text = word.text
            guard text.hasPrefix("-") else {
                if !Self.isPinned(text) { unpinned.append(word) }
                continue
            }
            let name = String(text.prefix { $0 != "=" })
            let attached = text.contains("=") || (!text.hasPrefix("--") && text.count > 2)
            if name == "--require-hashes" { requiresHashes = true }
            if ["-r", "--requirement"].contains(name) || (text.hasPrefix("-r") && !text.hasPrefix("--")) {
                requirementFiles.append(word)
            }
            if ["-c", "--constraint"].contains(name) || (text.hasPrefix("-c") && !text.hasPrefix("--")) { hasConstraints = true }
            if Self.valuedOptions.contains(name) && !attached { index += 1 }
        }
        if requiresHashes { return [] }
        var findings: [LintFinding] = []
        if let file = requirementFiles.first {
            findings.append(finding("pip install reads a requirements file without --require-hashes", at: file.location))
        }
        if !hasConstraints, let first = unpinned.first {
            let names = unpinned.map(\.text).joined(separator: ", ")
            findings.append(finding("pip install without an == version pin for \(names)", at: first.location))
        }
        return findings
    }

    /// A requirement pinned with `==`/`===`, a local path or archive, or a variable reference.
    private static func isPinned(_ requirement: String) -> Bool {
        if requirement.contains("==") || requirement.contains("$") { return true }
        if requirement.hasPrefix(".") || requirement.hasPrefix("/") || requirement.hasPrefix("~") { return true }
        return [".whl", ".tar.gz", ".zip"].contains { requirement.hasSuffix($0) } && !requirement.contains("://")
    }
}
