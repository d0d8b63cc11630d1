import DockerfileSyntax

/// SB027: a shell-form `RUN` pipes one command into another (`|`, not `||`) while no `SHELL`
/// of its build stage sets `-o pipefail`: the shell then takes the exit status of the last
/// command only, so `curl … | tar -x` succeeds when the download fails. The `SHELL` that
/// counts is the last one before the `RUN` in the stage, or in the earlier stage it is built
/// `FROM`; a `RUN` that runs `set -o pipefail` (or a shell with `-o pipefail`) before the
/// pipe is left alone too. A pipe inside a command substitution (`$(…)`, backquotes) that is the
/// value of a plain assignment counts: `x="$(curl … | sha256sum)"` has the pipe's status, so
/// curl's failure is lost without pipefail. A substitution used as an argument (`for f in
/// $(git status | awk …)`, `[ "$(sha256sum f | cut …)" = "$SHA" ]`, `echo "$(…)"`) is not
/// judged, though hadolint's DL4006 flags it: its status is lost with or without pipefail, so
/// the rule's fix would fix nothing. Pipes inside quotes, `$((…))` arithmetic, `case`
/// patterns, `[[ … =~ (a|b) ]]`, extended globs and here-documents that are data are not pipes.
///
/// Not judged: exec-form `RUN` (no `SHELL` runs it), `ONBUILD RUN` (the image built from this
/// one runs it), a `SHELL` that is no POSIX-like shell (PowerShell, `cmd`), and a build stage
/// whose `SHELL` may come from a stage template the file does not show (a layer template
/// without `FROM`, `FROM stage:NAME`, a `USE` line before the `RUN`).
///
/// Source: hadolint DL4006 ("Set the SHELL option -o pipefail before RUN with a pipe in it");
/// Docker docs, "Building best practices", section "Using pipes"; dash(1) on Debian 12, whose
/// `set` has no `pipefail` option.
struct SB027PipeWithoutPipefail: LintRule {
    let id = "SB027"
    let name = "pipe-without-pipefail"
    let severity = LintSeverity.warning
    let summary = "A shell-form RUN has a pipe while no SHELL of its build stage sets -o pipefail."
    let hint =
        #"add SHELL ["/bin/bash", "-o", "pipefail", "-c"] before the RUN; Debian's /bin/sh (dash) rejects set -o pipefail"#
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nRUN curl -fsSL https://example.com/tool.tar.gz | tar -xz -C /opt\n",
        #"""
        FROM debian:bookworm-slim
        SHELL ["/bin/bash", "-o", "pipefail", "-c"]
        SHELL ["/bin/sh", "-c"]
        RUN grep -v '^#' /etc/hosts | sort
        """#,
        #"""
        FROM debian:bookworm-slim AS base
        FROM base
        RUN <<EOF
        set -eux
        dpkg -l | grep libssl
        EOF
        """#,
        "FROM debian:bookworm-slim\nRUN sh -c 'ls /etc | wc -l'\n",
        #"FROM debian:bookworm-slim\#nRUN dst="$(echo "$src" | tr -d 3)" && cp "$src" "$dst"\#n"#,

        "FROM debian:bookworm-slim\nRUN <<EOF\nv=`dpkg -l | grep -c ssl`\necho $v\nEOF\n",
    ]
    let nonTriggeringExamples = [
        #"""
        FROM debian:bookworm-slim
        SHELL ["/bin/bash", "-o", "pipefail", "-c"]
        RUN curl -fsSL https://example.com/tool.tar.gz | tar -xz -C /opt
        """#,
        #"""
        FROM debian:bookworm-slim AS base
        SHELL ["/bin/bash", "-euo", "pipefail", "-c"]
        FROM base
        RUN dpkg -l | grep libssl
        """#,
        #"""
        FROM debian:bookworm-slim
        RUN test -f /etc/hosts || true
        RUN echo 'a | b' "c|d" && echo "$((1 | 2))" > /bits
        RUN for f in $(git status --porcelain | awk '{print $2}'); do echo "$f"; done
        RUN [ "$(sha256sum /tmp/t.tgz | cut -d' ' -f1)" = "$SHA" ] && echo "`echo \"x | y\"`"
        RUN ["/bin/sh", "-c", "ls | wc -l"]
        """#,
        "FROM alpine:3.20\nRUN set -euo pipefail; apk info | sort\n",
        #"""
        FROM debian:bookworm-slim
        ARG TARGETARCH
        RUN if [[ "$TARGETARCH" =~ ^(amd64|arm64)$ ]]; then echo ok; fi
        RUN [[ $TARGETARCH == @(amd64|arm64) ]] && rm -rf /opt/!(keep|this)
        """#,
        "FROM alpine:3.20\nRUN bash -o pipefail -c 'apk info | sort'\n",
        #"""
        FROM debian:bookworm-slim
        RUN set -eux; \
            case "$(uname -m)" in \
                x86_64 | amd64) arch=amd64 ;; \
                (aarch64|arm64) arch=arm64 ;; \
                *) exit 1 ;; \
            esac; \
            echo "$arch" > /arch
        """#,
        "# A layer template: the stage it joins may set SHELL.\nRUN ls | wc -l\n",
        #"FROM mcr.microsoft.com/windows/servercore:ltsc2022\#nSHELL ["powershell", "-Command"]\#nRUN Get-ChildItem | Select-Object Name\#n"#,
    ]

    /// What the `SHELL` in force says about pipes.
    private enum ShellState {
        /// A POSIX-like shell without `-o pipefail`, as `/bin/sh -c` is.
        case withoutPipefail
        /// A shell with `-o pipefail`.
        case pipefail
        /// Not known, or not a POSIX-like shell: nothing to judge.
        case unknown
    }

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        let parents = document.parentStages
        var endStates: [ShellState] = []
        var stateOfRun: [Int: ShellState] = [:]
        for (stageIndex, stage) in document.stages.enumerated() {
            var state = ShellState.withoutPipefail
            if stage.from == nil || stage.isTemplateReference {
                state = .unknown
            } else if let parent = parents[stageIndex] {
                state = endStates[parent]
            }
            for entryIndex in stage.entryIndices {
                let entry = document.entries[entryIndex]
                switch entry.keyword {
                case .shell: state = Self.state(of: entry.instruction.command)
                case .use: state = .unknown
                case .run: stateOfRun[entryIndex] = state
                default: break
                }
            }
            endStates.append(state)
        }
        var findings: [LintFinding] = []
        for script in document.runScripts where !script.run.isJSONForm && stateOfRun[script.entryIndex] == .withoutPipefail {
            var setsPipefail = false
            search: for outer in script.commands {
                // A substitution's status counts only as the value of a plain assignment
                // (`v=$(a | b)`); as an argument (`[ "$(…)" = x ]`, `for f in $(…)`) its failure
                // is lost with pipefail too, so pipefail is no fix there.
                let isAssignment = outer.program == nil && !outer.words.isEmpty
                for command in isAssignment ? outer.inRunOrder : [outer] {
                    if command.program == "set" || command.runsShell, ShellScript.setsPipefail(command.arguments.map(\.text)) {
                        setsPipefail = true
                    }
                    guard command.separator == .pipe, !setsPipefail,
                        let word = command.invocation.first ?? command.words.first
                    else { continue }
                    let message =
                        command == outer
                        ? "the output of \(word.text) is piped on without pipefail, so its failure does not fail the RUN"
                        : "the output of \(word.text) is piped on in an assigned command substitution without pipefail, so its failure does not fail the RUN"
                    findings.append(finding(message, at: word.location))
                    break search
                }
            }
        }
        return findings
    }

    /// The state a `SHELL` instruction sets: BuildKit takes only the exec form.
    private static func state(of command: CommandForm?) -> ShellState {
        guard case .exec(let words) = command, let program = words.first?.text.split(separator: "/").last,
            ShellScript.shells.contains(String(program))
        else { return .unknown }
        return ShellScript.setsPipefail(words.dropFirst().map(\.text)) ? .pipefail : .withoutPipefail
    }
}
