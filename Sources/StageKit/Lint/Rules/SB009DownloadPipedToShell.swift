import DockerfileSyntax

/// SB009: a download is run as a script without being checked: `curl … | sh`,
/// `wget -O- … | bash`, `sh -c "$(curl …)"`, `bash <(curl …)`, or piped into another
/// interpreter that runs its standard input (`curl … | python3 -`, as installers such as
/// poetry's suggest; `perl`, `ruby`, `node`, `php`), or downloaded to a file that a shell or
/// interpreter of the same `RUN` then runs (`curl -o x.sh … && bash x.sh`) with no check that
/// covers it (`Downloads`). `… | sh -c SCRIPT` runs SCRIPT, not what it reads. Whatever the server sends
/// that day runs as root in the build, and two builds may run different scripts.
///
/// Source: Docker docs, "Building best practices" (verify downloads with a checksum); hadolint
/// has no equivalent (DL4006 asks for `set -o pipefail` in such pipes).
struct SB009DownloadPipedToShell: LintRule {
    let id = "SB009"
    let name = "download-piped-to-shell"
    let severity = LintSeverity.warning
    let summary = "A script downloaded with curl or wget is run by a shell or interpreter without being checked."
    let hint = "download to a file, check it with echo '<sha256>  FILE' | sha256sum -c -, then run it"
    let triggeringExamples = [
        "RUN curl -fsSL https://deb.nodesource.com/setup_20.x | bash -\n",
        "RUN wget -qO- https://get.example.com/install.sh | sh\n",
        "RUN curl --proto '=https' -sSf https://sh.rustup.rs | sh -s -- -y\n",
        "RUN <<EOF\nset -eux\ncurl -fsSL https://get.example.com/install.sh \\\n  | sudo -E bash\nEOF\n",
        "RUN sh -c \"$(curl -fsSL https://get.example.com/install.sh)\"\n",
        "RUN curl -sSL https://install.python-poetry.org | python3 -\n",
        "RUN curl -fsSL https://example.com/setup.pl | perl\n",
        "RUN curl -fsSLo /tmp/x.sh https://example.com/x.sh && bash /tmp/x.sh\n",
        "RUN wget -O install.sh https://example.com/install.sh; sh install.sh --prefix=/usr\n",
    ]
    let nonTriggeringExamples = [
        #"""
        RUN curl -fsSLo /tmp/install.sh https://get.example.com/install.sh \
            && echo "7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d  /tmp/install.sh" | sha256sum -c - \
            && sh /tmp/install.sh
        """#,
        "RUN curl -fsSL https://example.com/tool.tar.gz | tar -xz -C /opt\n",
        "RUN <<EOF\nset -eux\n# never: curl https://get.example.com | sh\necho done\nEOF\n",
        "RUN curl -fsSL https://example.com/data.json | python3 -m json.tool > /data.json\n",
        "RUN curl -fsSL https://example.com/install.sh | sh -c 'cat > /tmp/i.sh'\n",
        #"""
        RUN curl -fsSLo /tmp/x.sh https://example.com/x.sh \
            && echo "7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d  /tmp/x.sh" | sha256sum -c - \
            && bash /tmp/x.sh
        """#,
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            var downloader: String?
            // Files downloaded in this RUN and not yet checked, with the program that wrote each.
            var downloaded: [String: String] = [:]
            var pipedFrom: ShellScript.Command?
            let commands = script.commands
            for (position, command) in commands.enumerated() {
                let next = commands.indices.contains(position + 1) ? commands[position + 1] : nil
                if Downloads.isCheck(command, pipedFrom: pipedFrom, next: next) {
                    downloaded = downloaded.filter { !Downloads.covers(command, pipedFrom: pipedFrom, file: $0.key) }
                }
                let runsInput = (command.runsShell && command.shellCommandWord == nil) || Self.runsInterpreterOnInput(command)
                if let shell = command.invocation.first, runsInput || command.runsShell {
                    if let downloader, runsInput {
                        findings.append(finding("output of \(downloader) is piped into \(shell.text)", at: shell.location))
                    } else if let fetch = command.arguments.first(where: { Self.substitutesDownload($0.text) }) {
                        findings.append(
                            finding(
                                "\(shell.text) runs a script fetched by \(fetch.text.contains("wget") ? "wget" : "curl")",
                                at: shell.location))
                    } else if let file = Self.scriptOperand(command), let source = downloaded[file.text] {
                        let message = "\(shell.text) runs \(file.text), downloaded by \(source), without a checksum check"
                        findings.append(finding(message, at: shell.location))
                    }
                }
                if let program = command.program, Downloads.downloaders.contains(program) {
                    downloader = downloader ?? program
                    for file in Downloads.writtenFiles(command, program: program) { downloaded[file] = program }
                }
                if command.separator != .pipe { downloader = nil }
                pipedFrom = command.separator == .pipe ? command : nil
            }
        }
        return findings
    }

    /// The script file a shell or interpreter is given: its first word that is no option
    /// (`bash /tmp/install.sh --prefix=/usr`); `nil` for `sh -c SCRIPT`.
    private static func scriptOperand(_ command: ShellScript.Command) -> ShellScript.Word? {
        guard command.shellCommandWord == nil else { return nil }
        return command.arguments.first { !$0.text.hasPrefix("-") && !$0.text.hasPrefix("+") }
    }

    /// An interpreter that reads its program from standard input: `python3`, `perl`, `ruby`,
    /// `node` or `php` with no program argument, or with `-` as the program.
    private static func runsInterpreterOnInput(_ command: ShellScript.Command) -> Bool {
        guard let program = command.program else { return false }
        let isPython = program.hasPrefix("python") && program.dropFirst(6).allSatisfy { $0.isNumber || $0 == "." }
        guard isPython || ["perl", "ruby", "node", "php"].contains(program) else { return false }
        let operands = command.arguments.filter { !$0.text.hasPrefix("-") || $0.text == "-" }
        let runsModule = command.arguments.contains { ["-m", "-c", "-e", "-r"].contains($0.text) }
        return !runsModule && (operands.isEmpty || operands.first?.text == "-")
    }

    /// `$(curl …)`, `` `wget …` `` or `<(curl …)` inside a word.
    private static func substitutesDownload(_ text: String) -> Bool {
        ["$(", "<(", "`"].contains { opener in
            Downloads.downloaders.contains { text.contains(opener + $0 + " ") }
        }
    }
}
