import DockerfileSyntax

extension DockerfileDocument {
    /// The shell commands one `RUN` runs: those of its command line, then those of each
    /// heredoc that is a shell script (the heredoc is the whole command, as in `RUN <<EOF`,
    /// or it feeds a shell, as in `RUN bash <<EOF`), with the commands of `sh -c SCRIPT`.
    struct RunScript: Sendable {
        /// The instruction's index in `DockerfileDocument.entries`.
        var entryIndex: Int
        /// The `RUN`, or the `ONBUILD` that registers it.
        var entry: Entry
        /// The `RUN` itself (for `ONBUILD RUN`, the trigger).
        var run: Instruction
        /// The commands in order.
        var commands: [ShellScript.Command]

        /// The `RUN`'s `--mount` flags, as its typed view reads them.
        var mounts: [RunInstruction.Mount] { run.asRun?.mounts ?? [] }

        /// The commands, each with whether a later command of the same `RUN` matches a
        /// predicate (a cleanup, a checkout), found in one backward pass so that a script of
        /// many commands is read in linear time.
        ///
        /// - Parameter isMatch: The predicate on a later command.
        /// - Returns: Each command in order with `true` when a command after it matches.
        func commands(
            followedBy isMatch: (ShellScript.Command) -> Bool
        ) -> [(command: ShellScript.Command, isFollowed: Bool)] {
            var result: [(command: ShellScript.Command, isFollowed: Bool)] = []
            result.reserveCapacity(commands.count)
            var seen = false
            for command in commands.reversed() {
                result.append((command, seen))
                if !seen && isMatch(command) { seen = true }
            }
            return result.reversed()
        }
    }

    static func runScript(_ entry: Entry, index: Int) -> RunScript? {
        let run: Instruction
        if entry.keyword == .run {
            run = entry.instruction
        } else if entry.keyword == .onbuild, let trigger = entry.instruction.onbuildTrigger, trigger.knownKeyword == .run {
            run = trigger
        } else {
            return nil
        }
        var script = RunScript(entryIndex: index, entry: entry, run: run, commands: [])
        if run.isJSONForm {
            // Each argument where it is written (where its arguments start when it holds a JSON escape).
            let words = run.argumentWords.map { word in
                ShellScript.Word(text: word.text, isQuoted: true, location: run.location(of: word))
            }
            let argv = ShellScript.Command(words: words, heredocDelimiters: [], separator: .end)
            script.commands = [argv]
            if let inner = argv.shellCommandWord {
                script.commands += ShellScript(inner.text, locate: { _ in inner.location }).commands
            }
            return script
        }
        let command = run.argumentWords.first
        let base = command?.range?.lowerBound ?? run.argumentsOffset
        let commandLine = ShellScript(command?.text ?? "", locate: { run.lineMap.location(ofOffset: base + $0) }).commands
        script.commands = commandLine
        for heredoc in run.heredocs where isShellScript(heredoc, commandLine: commandLine) {
            let locate = heredoc.locator(instructionStartLine: entry.instruction.startLine)
            script.commands += ShellScript(heredoc.content, locate: locate).commands
        }
        return script
    }

    /// Whether a heredoc of a `RUN` is run as a shell script rather than read as data.
    private static func isShellScript(_ heredoc: Heredoc, commandLine: [ShellScript.Command]) -> Bool {
        let interpreter = ShellScript.interpreter(of: heredoc.content)
        let runsAsShell = interpreter.map { ShellScript.shells.contains($0) } ?? true
        guard let owner = commandLine.first(where: { $0.heredocDelimiters.contains(heredoc.name) }) else {
            return runsAsShell && commandLine.allSatisfy { $0.invocation.isEmpty }
        }
        if owner.invocation.isEmpty { return runsAsShell }
        return owner.runsShell && owner.shellCommandWord == nil
    }
}
