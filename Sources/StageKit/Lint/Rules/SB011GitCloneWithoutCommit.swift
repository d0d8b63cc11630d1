import DockerfileSyntax

/// SB011: `git clone` is not followed, in the same `RUN`, by a checkout of a full commit id
/// (40 hex digits, or 64 for SHA-256 repositories), nor given one with `--revision`. A branch
/// or tag can point at another commit tomorrow, so `--branch v1.0` (`-b`) is no fixed commit
/// either. `git checkout`, `git switch --detach`, `git reset --hard` and `git fetch` of a
/// commit count; variables with a known `ARG` or `ENV` value are expanded.
///
/// `git clone`'s options are read as git reads them: the options that take a value
/// (`--depth`, `--branch`/`-b`, `--origin`/`-o`, `--jobs`/`-j`, `--config`/`-c`,
/// `--reference`, `--separate-git-dir`, `--filter`, `--template`, `--shallow-since`,
/// `--shallow-exclude`, `--upload-pack`/`-u`, `--server-option`, `--bundle-uri`,
/// `--ref-format`, `--revision`) take it after `=` or as the next word, a short one also
/// stuck to it (`-bmain`, `-qb main`), and `--` ends the options; the first operand is the
/// repository. Abbreviated long options (`--dep`) are not read.
///
/// Source: git docs, "git-clone" (options; `--revision`, git 2.49) and "git-checkout";
/// Docker docs, "Building best practices" (reproducible inputs). hadolint has no equivalent.
struct SB011GitCloneWithoutCommit: LintRule {
    let id = "SB011"
    let name = "git-clone-without-commit"
    let severity = LintSeverity.warning
    let summary = "git clone is not followed by a checkout of a fixed 40-hex commit."
    let hint = "check out a full commit id: git -C DIR checkout <40-hex commit>, or git clone --revision=<commit> (git 2.49+)"
    let triggeringExamples = [
        "RUN git clone https://github.com/example/tool.git /src/tool\n",
        "RUN git clone --depth 1 --branch v1.2.3 https://github.com/example/tool.git /src/tool\n",
        "RUN git clone https://github.com/example/tool.git /src/tool && cd /src/tool && git checkout main\n",
        "RUN <<EOF\nset -eux\ngit clone https://github.com/example/tool.git /src/tool\nmake -C /src/tool\nEOF\n",
        "RUN git clone --depth 1 --branch v1.0 https://github.com/example/tool.git\n",
        "RUN git clone -qb v1.0 --depth=1 -o upstream -j 4 -c core.autocrlf=false https://github.com/example/tool.git /src\n",
        "RUN git clone --filter blob:none --revision=v1.2.3 https://github.com/example/tool.git /src/tool\n",
    ]
    let nonTriggeringExamples = [
        #"""
        RUN git clone https://github.com/example/tool.git /src/tool \
            && git -C /src/tool checkout 1f8b943c7656eba8b5f8169fb04a61734c9e8f72
        """#,
        "RUN git clone --revision=1f8b943c7656eba8b5f8169fb04a61734c9e8f72 https://github.com/example/tool.git /src/tool\n",
        "RUN git clone --depth 1 --revision 1f8b943c7656eba8b5f8169fb04a61734c9e8f72 https://github.com/example/tool.git\n",
        #"""
        RUN git clone --depth 1 --branch v1.0 https://github.com/example/tool.git /src/tool \
            && git -C /src/tool fetch --depth 1 origin 1f8b943c7656eba8b5f8169fb04a61734c9e8f72 \
            && git -C /src/tool checkout FETCH_HEAD
        """#,
        #"""
        ARG TOOL_COMMIT=1f8b943c7656eba8b5f8169fb04a61734c9e8f72
        RUN <<EOF
        set -eux
        git clone https://github.com/example/tool.git /src/tool
        cd /src/tool
        git -c advice.detachedHead=false checkout "${TOOL_COMMIT}"
        EOF
        """#,
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            func isCommit(_ text: String) -> Bool {
                let value = document.expand(text, before: script.entryIndex) ?? ""
                return (value.count == 40 || value.count == 64) && value.allSatisfy(\.isHexDigit)
            }
            let checksOutCommit = { (later: ShellScript.Command) -> Bool in
                guard let (action, rest) = Self.gitSubcommand(later),
                    ["checkout", "switch", "reset", "fetch"].contains(action.text)
                else { return false }
                return rest.contains { isCommit($0.text) }
            }
            for (command, isFollowed) in script.commands(followedBy: checksOutCommit) {
                guard let clone = Self.clone(command) else { continue }
                if isFollowed || clone.values["--revision"].map(isCommit) == true { continue }
                let repository = clone.repository.map { " of \($0)" } ?? ""
                let message: String
                if let branch = clone.values["--branch"] {
                    message = "git clone\(repository) --branch \(branch) names a branch or tag, not a fixed commit"
                } else {
                    message = "git clone\(repository) is not followed by a checkout of a fixed commit"
                }
                findings.append(finding(message, at: clone.subcommand.location))
            }
        }
        return findings
    }

    /// Git's global options that take the next word as their value.
    private static let globalValuedOptions: Set<String> = [
        "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix",
    ]

    /// `git clone`'s long options that take a value.
    private static let cloneValuedLongOptions: Set<String> = [
        "--template", "--origin", "--branch", "--revision", "--upload-pack", "--reference", "--reference-if-able",
        "--separate-git-dir", "--depth", "--shallow-since", "--shallow-exclude", "--jobs", "--config", "--filter",
        "--server-option", "--bundle-uri", "--ref-format",
    ]

    /// `git clone`'s short options that take a value, with their long names.
    private static let cloneValuedShortOptions: [Character: String] = [
        "o": "--origin", "b": "--branch", "u": "--upload-pack", "j": "--jobs", "c": "--config",
    ]

    /// A `git clone` command read into its options and operands.
    struct Clone {
        /// The `clone` word.
        var subcommand: ShellScript.Word
        /// The value of each option that takes one, by its long name (`--branch` for `-b`).
        var values: [String: String] = [:]
        /// The words that are not options: the repository, then the directory.
        var operands: [ShellScript.Word] = []

        /// The repository, as written.
        var repository: String? { operands.first?.text }
    }

    /// Reads a `git clone` command, or returns `nil` for any other command.
    ///
    /// - Parameter command: A shell command.
    static func clone(_ command: ShellScript.Command) -> Clone? {
        guard let (subcommand, arguments) = gitSubcommand(command), subcommand.text == "clone" else { return nil }
        var clone = Clone(subcommand: subcommand)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let text = arguments[index].text
            index += 1
            if optionsEnded || !text.hasPrefix("-") || text == "-" {
                clone.operands.append(arguments[index - 1])
            } else if text == "--" || text == "--end-of-options" {
                optionsEnded = true
            } else if text.hasPrefix("--") {
                let name = String(text.prefix { $0 != "=" })
                guard cloneValuedLongOptions.contains(name) else { continue }
                if let equals = text.firstIndex(of: "=") {
                    clone.values[name] = String(text[text.index(after: equals)...])
                } else if index < arguments.count {
                    clone.values[name] = arguments[index].text
                    index += 1
                }
            } else {
                // A cluster of short options: the first that takes a value takes the rest of
                // the word, or the next word when nothing is left.
                var rest = text.dropFirst()
                while let flag = rest.popFirst() {
                    guard let long = cloneValuedShortOptions[flag] else { continue }
                    if !rest.isEmpty {
                        clone.values[long] = String(rest)
                    } else if index < arguments.count {
                        clone.values[long] = arguments[index].text
                        index += 1
                    }
                    break
                }
            }
        }
        return clone
    }

    /// The subcommand word and its arguments of a `git` command, git's global options skipped.
    private static func gitSubcommand(_ command: ShellScript.Command) -> (ShellScript.Word, [ShellScript.Word])? {
        guard command.program == "git" else { return nil }
        let arguments = Array(command.arguments)
        var index = 0
        while index < arguments.count, arguments[index].text.hasPrefix("-") {
            index += globalValuedOptions.contains(arguments[index].text) ? 2 : 1
        }
        guard index < arguments.count else { return nil }
        return (arguments[index], Array(arguments[(index + 1)...]))
    }
}
