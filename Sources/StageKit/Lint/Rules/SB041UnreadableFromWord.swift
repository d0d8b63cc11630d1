import DockerfileSyntax

/// SB041: a `COPY --from` or `RUN --mount=…,from=` names its stage or image through a variable
/// (`--from=${BUILDER}`): BuildKit stops the build ("variable expansion is not supported for
/// --from"); buildah looks the word up as written and finds no stage of that name. A quoted
/// `COPY --from="registry/app:1"` is reported too: BuildKit's flag reader unquotes it, but no pin
/// can replace it in place. compose and lock refuse the same words in templates and Stagefiles.
///
/// Source: moby/buildkit `frontend/dockerfile/dockerfile2llb/convert.go` (Dockerfile frontend
/// 1.18 and later: a `--from` that shell-word processing changes is an error; the stage graph
/// is built from the words as written); Dockerfile reference, "COPY --from".
struct SB041UnreadableFromWord: LintRule {
    let id = "SB041"
    let name = "variable-in-from-flag"
    let severity = LintSeverity.error
    let summary = "COPY --from or a mount's from= names its stage through a variable, which builders do not expand."
    let hint =
        "write the stage or image name as it is, without variables or quotes; to choose a stage with a build argument, "
        + "add a stage FROM ${ARG} AS name (the ARG global, before the first FROM) and COPY --from=name"
    let triggeringExamples = [
        "ARG BUILDER=build\nFROM alpine:3.20 AS build\nFROM alpine:3.20\nCOPY --from=${BUILDER} /out/app /app\n",
        "FROM alpine:3.20\nCOPY --from=\"registry.example/tools:1\" /bin/tool /bin/tool\n",
        "FROM alpine:3.20 AS build\nFROM alpine:3.20\nARG SRC=build\nRUN --mount=type=bind,from=$SRC,target=/src ls /src\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20 AS build\nFROM alpine:3.20\nCOPY --from=build /out/app /app\n",
        "ARG BUILDER=golang:1.23\nFROM ${BUILDER} AS build\nFROM alpine:3.20\nCOPY --from=build /out/app /app\n",
        "FROM alpine:3.20\nRUN --mount=type=bind,from=registry.example/tools:1,target=/t ls /t\n",
        "FROM alpine:3.20\nCOPY --from=0 /x /x\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.flatMap { entry in
            Stagefile.unreadableFromWords(of: entry.instruction).map { finding($0.message, at: $0.location) }
        }
    }
}
