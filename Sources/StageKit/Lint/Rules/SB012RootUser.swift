import DockerfileSyntax

/// SB012: the final build stage runs as root: its last `USER` is `root` or `0`, or it has no
/// `USER` at all (the default is root; hadolint misses this case). A `USER` of an earlier
/// stage that the final stage is built `FROM` counts. Without a `USER`, the finding points at
/// the stage's last `CMD` or `ENTRYPOINT`, else at its `FROM`.
///
/// Applies only to files with a `FROM`: a layer template has none. In a Stagefile, a build
/// stage from `FROM stage:NAME` or with `USE` lines gets instructions from templates that the
/// file does not show, so a missing `USER` there is not judged (lint the composed Dockerfile,
/// `compose --lint`, for that); but an explicit `USER root` that is the stage's last `USER`
/// and is not followed by a `USE` line is a finding there too, as no template can undo it.
///
/// Not judged either: a final stage built on `scratch` with no `CMD` or `ENTRYPOINT` in its
/// chain of stages (it only holds files for `docker build --output`, and never runs), a
/// distroless base whose tag says it sets a non-root user (distroless images set `USER 65532` on
/// the tags `nonroot`, `nonroot-amd64`, `debug-nonroot`, `debug-nonroot-arm64`: any tag with the
/// word `nonroot` between dashes, in a repository whose path names `distroless`), and a stage named through a variable (`FROM binaries-$TARGETOS`,
/// docker/buildx's release Dockerfile) when every earlier stage the name can match is quiet.
///
/// Source: hadolint DL3002 ("Last USER should not be root"); Docker docs, "Building best
/// practices", section "USER".
struct SB012RootUser: LintRule {
    let id = "SB012"
    let name = "root-user"
    let severity = LintSeverity.warning
    let summary = "The final build stage runs as root: its last USER is root, or it has no USER."
    let hint = "create an unprivileged user (useradd --system) and switch to it with USER before CMD or ENTRYPOINT"
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nCMD [\"bash\"]\n",
        "FROM debian:bookworm-slim\nUSER app\nRUN id\nUSER root\n",
        "FROM debian:bookworm-slim AS build\nUSER builder\nFROM debian:bookworm-slim\nENTRYPOINT [\"/app\"]\n",
        "FROM debian:bookworm-slim\nUSER 0:0\n",
        "FROM stage:debian AS app\nUSE node-service\nUSER root\n",
        "FROM stage:debian AS app\nUSER root\nRUN apt-get clean\n",
        "ARG RUN_AS=root\nFROM debian:bookworm-slim\nARG RUN_AS\nUSER ${RUN_AS}\n",
        #"""
        FROM debian:bookworm-slim AS app-linux
        CMD ["/app"]
        FROM scratch AS app-windows
        COPY app.exe /
        FROM app-${TARGETOS}
        """#,
        "FROM scratch AS base\nCOPY app /\nCMD [\"/app\"]\nFROM base\n",
        "FROM docker.io/someone/app:nonroot\nCMD [\"/app\"]\n",
    ]
    let nonTriggeringExamples = [
        "FROM debian:bookworm-slim\nRUN useradd --system app\nUSER app\nCMD [\"/app\"]\n",
        "FROM debian:bookworm-slim\nUSER root\nRUN apt-get clean\nUSER 10001:10001\n",
        "FROM debian:bookworm-slim AS base\nUSER app\nFROM base\nCMD [\"/app\"]\n",
        "# A layer template: the build stage it joins decides the user.\nRUN true\n",
        "FROM stage:debian AS app\nUSE node-service\n",
        "FROM stage:debian AS app\nUSER root\nRUN apt-get clean\nUSE node-service\n",
        "FROM stage:debian AS app\nUSE node-service\nUSER root\nRUN apt-get clean\nUSER node\n",
        "FROM gcr.io/distroless/static-debian12:nonroot\nCOPY app /app\nENTRYPOINT [\"/app\"]\n",
        "FROM gcr.io/distroless/base-debian12:debug-nonroot@sha256:"
            + String(repeating: "0", count: 64) + "\nENTRYPOINT [\"/app\"]\n",
        "FROM golang:1.22 AS build\nUSER 1000\nRUN make\nFROM scratch AS binary\nCOPY --from=build /out /\n",
        #"""
        FROM golang:1.22 AS build
        RUN make
        FROM scratch AS binaries-linux
        COPY --from=build /out/app /
        FROM scratch AS binaries-windows
        COPY --from=build /out/app.exe /
        FROM binaries-$TARGETOS AS binaries
        FROM binaries
        """#,
        "FROM gcr.io/distroless/static-debian12:nonroot-amd64\nENTRYPOINT [\"/app\"]\n",
        "ARG DISTROLESS_TAG=debug-nonroot-arm64\nFROM gcr.io/distroless/base-debian12:${DISTROLESS_TAG}\nENTRYPOINT [\"/app\"]\n",
    ]

    /// What a stage's chain of `FROM`s says about its user.
    private enum Verdict {
        /// A non-root user, a template that may set one, or nothing that runs.
        case quiet
        /// An explicit `USER root` (or `0`) is the last `USER`.
        case explicitRoot(LintFinding)
        /// No `USER` anywhere in the chain, and a base that does not set one.
        case noUser
    }

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        guard let finalIndex = document.stages.indices.last, let from = document.stages[finalIndex].from else { return [] }
        switch verdict(ofStage: finalIndex, in: document, parents: document.parentStages, depth: 0) {
        case .quiet:
            return []
        case .explicitRoot(let finding):
            return [finding]
        case .noUser:
            let starts = document.entries(of: document.stages[finalIndex]).filter {
                $0.keyword == .cmd || $0.keyword == .entrypoint
            }
            return [finding("the final build stage sets no USER, so it runs as root", at: (starts.last ?? from).start)]
        }
    }

    /// Walks a stage's chain of earlier stages to its base. A base named through a variable
    /// (`FROM binaries-$TARGETOS`) that matches earlier stages is judged by every stage it can
    /// name: quiet when each of them is.
    private func verdict(ofStage start: Int, in document: DockerfileDocument, parents: [Int?], depth: Int) -> Verdict {
        var stageIndex = start
        var visited: Set<Int> = []
        // Whether any stage of the chain sets CMD or ENTRYPOINT: a stage that never runs has no user to judge.
        var runs = false
        while visited.insert(stageIndex).inserted {
            let stage = document.stages[stageIndex]
            // The stage's last USER, and whether a USE line (a layer template) follows it.
            var lastUser: Int?
            var templateFollows = stage.isTemplateReference
            for index in stage.entryIndices {
                switch document.entries[index].keyword {
                case .user:
                    lastUser = index
                    templateFollows = false
                case .use:
                    templateFollows = true
                case .cmd, .entrypoint:
                    runs = true
                default:
                    break
                }
            }
            // A template after the last USER (or the stage's own template base) may set another.
            if templateFollows { return .quiet }
            if let index = lastUser {
                let user = document.entries[index]
                guard let written = user.instruction.asUser?.word else { return .quiet }
                let value = written.text
                let expanded = document.expand(document.unquoted(value), before: index) ?? value
                guard Self.isRoot(expanded) else { return .quiet }
                let location = user.instruction.location(of: written)
                return .explicitRoot(
                    finding("the final build stage switches to USER \(expanded), so it runs as root", at: location))
            }
            guard let parent = parents[stageIndex] else { break }
            stageIndex = parent
        }
        let candidates = depth < 4 ? Self.stagesNamed(by: document.stages[stageIndex], before: stageIndex, in: document) : []
        if !candidates.isEmpty {
            var result = Verdict.quiet
            for candidate in candidates {
                switch verdict(ofStage: candidate, in: document, parents: parents, depth: depth + 1) {
                case .quiet: continue
                case .explicitRoot(let finding): return .explicitRoot(finding)
                case .noUser: result = .noUser
                }
            }
            return result
        }
        // The base at the root of the chain decides the user when no stage sets one.
        if let base = document.stages[stageIndex].from?.instruction.asFrom?.base {
            let image = (document.expandGlobal(document.unquoted(base.text)) ?? base.text).lowercased()
            if image == "scratch" && !runs { return .quiet }
            let tag =
                image.split(separator: "@").first.map { $0.split(separator: "/").last ?? $0 }
                .flatMap { $0.split(separator: ":", maxSplits: 1).dropFirst().first } ?? ""
            // Distroless publishes nonroot, nonroot-amd64, debug-nonroot and debug-nonroot-arm64;
            // another image's tag says nothing the rule can trust.
            let repository = image.split(separator: "@").first?.split(separator: ":").first ?? ""
            if repository.contains("distroless"), tag.split(separator: "-").contains("nonroot") { return .quiet }
        }
        return .noUser
    }

    /// The earlier stages a `FROM` with a variable in its name can build on: the one its
    /// global arguments' defaults name, else every earlier stage whose name matches with each
    /// variable reference standing for any text (`binaries-$TARGETOS` names `binaries-linux`
    /// and `binaries-windows`). Empty for a `FROM` without a variable.
    private static func stagesNamed(
        by stage: DockerfileDocument.BuildStage, before index: Int, in document: DockerfileDocument
    ) -> [Int] {
        guard let written = stage.base, written.contains("$") else { return [] }
        let base = document.unquoted(written)
        let earlier = document.stages[..<index].indices.filter { document.stages[$0].alias != nil }
        if let expanded = document.expandGlobal(base)?.lowercased() {
            return earlier.last { document.stages[$0].alias == expanded }.map { [$0] } ?? []
        }
        let pattern = literalParts(of: base.lowercased())
        return earlier.filter { document.stages[$0].alias.map { matches($0, pattern) } ?? false }
    }

    /// The literal texts between a word's variable references (`$NAME`, `${…}`), read as
    /// ``DockerfileDocument/expand(_:lookup:)`` reads them; the whole word for a form it cannot read.
    private static func literalParts(of word: String) -> [Substring] {
        let marker: Character = "\u{0}"
        guard let marked = DockerfileDocument.expand(word, lookup: { _ in .known(String(marker)) }) else { return [word[...]] }
        return marked.split(separator: marker, omittingEmptySubsequences: false)
    }

    /// Whether a name is the literal parts in order with any text between them.
    private static func matches(_ name: String, _ parts: [Substring]) -> Bool {
        guard let first = parts.first, let last = parts.last, name.hasPrefix(first) else { return false }
        var rest = name.dropFirst(first.count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return parts.count > 1 && rest.count >= last.count && rest.hasSuffix(last)
    }

    /// `root` or `0`, with or without a group.
    private static func isRoot(_ user: String) -> Bool {
        let name = user.prefix { $0 != ":" }.lowercased()
        return name == "root" || name == "0"
    }
}
