import DockerfileSyntax

/// SB038: a shell-form `RUN` sets `pipefail` (`set -o pipefail`, `set -euo pipefail`) while the
/// shell that runs it is Debian's or Ubuntu's `/bin/sh`, which is dash: dash 0.5.12 (Debian
/// 11 to 13, Ubuntu 20.04 to 24.04) has no `pipefail` option, so the `RUN` stops with
/// "Illegal option -o pipefail" (exit 2) before anything else runs.
///
/// Judged: a `RUN` under `/bin/sh` (no `SHELL` before it in its chain of stages, or a last one
/// that runs `sh`) in a build stage whose base image is known to be Debian or Ubuntu (`debian`,
/// `ubuntu`, a tag naming a release such as `bookworm`, `trixie` or `noble`, or an official
/// image built on Debian such as `python`, `node` or `golang` in a tag without `alpine`). Alpine's `/bin/sh` (BusyBox ash) and Fedora's (bash)
/// have the option; an unknown base is not judged, nor a `RUN` that hands its script to
/// another shell (`bash -c`) before the `set`.
///
/// Source: dash(1) of dash 0.5.12 (no `pipefail` among `set -o` options; upstream added it in
/// 2024, after every release named here); hadolint DL4006's hint has the same shell fix.
struct SB038PipefailUnderDash: LintRule {
    let id = "SB038"
    let name = "pipefail-under-dash"
    let severity = LintSeverity.error
    let summary = "A RUN sets pipefail under Debian's or Ubuntu's /bin/sh (dash), which has no such option."
    let hint = #"add SHELL ["/bin/bash", "-o", "pipefail", "-c"] before the RUN instead of set -o pipefail"#
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nRUN set -euo pipefail; echo hi\nSHELL [\"/bin/bash\", \"-c\"]\n",
        "FROM node:20\nSHELL [\"/bin/bash\", \"-c\"]\nSHELL [\"/bin/sh\", \"-c\"]\nRUN set -opipefail; npm ls | sort\n",
        "FROM debian:bookworm-slim\nRUN set -o pipefail && curl -fsSL https://example.com/x | tar -xz\n",
        "FROM python:3.12-slim-bookworm\nRUN set -euo pipefail; pip list | sort\n",
        "FROM ubuntu:24.04\nRUN <<EOF\nset -eux -o pipefail\ndpkg -l | grep ssl\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "FROM python:3.12-alpine\nRUN set -o pipefail; pip list | sort\n",
        "FROM alpine:3.20\nRUN set -euo pipefail; apk info | sort\n",
        "FROM debian:bookworm-slim\nSHELL [\"/bin/bash\", \"-c\"]\nRUN set -o pipefail && ls | wc -l\n",
        "FROM debian:bookworm-slim\nRUN bash -c 'set -o pipefail && ls | wc -l'\n",
        "FROM fedora:40\nRUN set -o pipefail && rpm -qa | sort\n",
        "FROM debian:bookworm-slim AS base\nSHELL [\"/bin/bash\", \"-c\"]\nFROM base\nRUN set -o pipefail && ls | wc -l\n",
    ]

    /// Official images whose tags without `alpine` or a Windows name are built on Debian
    /// (their Dockerfiles in docker-library: `FROM buildpack-deps:…` or `debian:…-slim`).
    private static let debianOfficialImages: Set<String> = [
        "python", "node", "golang", "ruby", "php", "perl", "rust", "buildpack-deps", "httpd", "nginx", "postgres", "redis",
    ]

    /// Release names of Debian and Ubuntu that official images put in their tags.
    private static let releases: Set<String> = [
        "stretch", "buster", "bullseye", "bookworm", "trixie", "bionic", "focal", "jammy", "noble",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts where script.entry.keyword == .run && !script.run.isJSONForm {
            guard let stage = document.stageIndex(ofEntry: script.entryIndex),
                Self.runsUnderSh(script.entryIndex, stage, document)
            else { continue }
            let chain = document.stageChain(of: stage)
            guard let root = chain.last, let image = Self.baseImage(of: document.stages[root], in: document) else { continue }
            for command in script.commands {
                // Past a command that runs another shell, the commands read are that shell's.
                if command.runsShell && command.program != "sh" && command.program != "dash" { break }
                guard command.program == "set", ShellScript.setsPipefail(command.arguments.map(\.text)),
                    let word = command.invocation.first
                else { continue }
                findings.append(
                    finding(
                        "set -o pipefail stops this RUN: /bin/sh of \(image) is dash, which has no pipefail option",
                        at: word.location))
                break
            }
        }
        return findings
    }

    /// Whether the `SHELL` in force at a `RUN` is `/bin/sh` (or dash): none in the stage's
    /// chain before it, or the last one before it runs `sh`.
    private static func runsUnderSh(_ entryIndex: Int, _ stage: Int, _ document: DockerfileDocument) -> Bool {
        for stageIndex in document.stageChain(of: stage) {
            let shell = document.stages[stageIndex].entryIndices.last {
                $0 < entryIndex && document.entries[$0].keyword == .shell
            }
            guard let shell else { continue }
            guard case .exec(let words) = document.entries[shell].instruction.command,
                let program = words.first?.text.split(separator: "/").last
            else { return false }
            return program == "sh" || program == "dash"
        }
        return true
    }

    /// The base image when it is Debian or Ubuntu, as written after expansion; `nil` otherwise.
    private static func baseImage(of stage: DockerfileDocument.BuildStage, in document: DockerfileDocument) -> String? {
        guard let written = stage.base, !stage.isTemplateReference else { return nil }
        let image = (document.expandGlobal(document.unquoted(written)) ?? written).lowercased()
        let reference = image.split(separator: "@").first.map(String.init) ?? image
        let name = reference.split(separator: "/").last.map(String.init) ?? reference
        let repository = name.prefix { $0 != ":" }
        let tagWords = name.drop { $0 != ":" }.dropFirst().split(whereSeparator: { $0 == "-" || $0 == "." }).map(String.init)
        let isOfficial = !reference.contains("/") || reference.hasPrefix("docker.io/library/")
        let otherSystem = tagWords.contains { $0.hasPrefix("alpine") || ["windowsservercore", "nanoserver"].contains($0) }
        if repository == "debian" || repository == "ubuntu" || tagWords.contains(where: releases.contains) { return reference }
        if isOfficial && debianOfficialImages.contains(String(repository)) && !otherSystem { return reference }
        return nil
    }
}
