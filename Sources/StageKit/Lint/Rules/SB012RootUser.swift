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
/// Not judged either: a final stage `FROM scratch` with no `CMD` or `ENTRYPOINT` (it only
/// holds files for `docker build --output`, and never runs), and a base image whose tag says
/// it sets a non-root user (`:nonroot`, `-nonroot`: distroless images set `USER 65532`).
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
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        guard let finalIndex = document.stages.indices.last, let from = document.stages[finalIndex].from else { return [] }
        let parents = document.parentStages
        var stageIndex = finalIndex
        var visited: Set<Int> = []
        while visited.insert(stageIndex).inserted {
            let stage = document.stages[stageIndex]
            // The stage's last USER, and whether a USE line (a layer template) follows it.
            var lastUser: Int?
            var templateFollows = stage.isTemplateReference
            for index in stage.entryIndices {
                switch document.entries[index].kind {
                case "USER":
                    lastUser = index
                    templateFollows = false
                case "USE":
                    templateFollows = true
                default:
                    break
                }
            }
            // A template after the last USER (or the stage's own template base) may set another.
            if templateFollows { return [] }
            if let index = lastUser {
                let user = document.entries[index]
                guard let written = user.instruction.asUser?.word else { return [] }
                let value = written.text
                let expanded = document.expand(document.unquoted(value), before: index) ?? value
                guard Self.isRoot(expanded) else { return [] }
                let location = user.instruction.location(of: written)
                return [finding("the final build stage switches to USER \(expanded), so it runs as root", at: location)]
            }
            guard let parent = parents[stageIndex] else { break }
            stageIndex = parent
        }
        let starts = document.entries(of: document.stages[finalIndex]).filter { ["CMD", "ENTRYPOINT"].contains($0.kind) }
        // The base at the root of the chain decides the user when no stage sets one.
        if let base = document.stages[stageIndex].from?.instruction.asFrom?.base {
            let image = (document.expandGlobal(document.unquoted(base.text)) ?? base.text).lowercased()
            if image == "scratch" && starts.isEmpty { return [] }
            let tag =
                image.split(separator: "@").first.map { $0.split(separator: "/").last ?? $0 }
                .flatMap { $0.split(separator: ":", maxSplits: 1).dropFirst().first } ?? ""
            if tag == "nonroot" || tag.hasSuffix("-nonroot") { return [] }
        }
        let anchor = starts.last ?? from
        return [finding("the final build stage sets no USER, so it runs as root", at: anchor.start)]
    }

    /// `root` or `0`, with or without a group.
    private static func isRoot(_ user: String) -> Bool {
        let name = user.prefix { $0 != ":" }.lowercased()
        return name == "root" || name == "0"
    }
}
