import DockerfileSyntax

/// SB042: a builder flag written without its value, `FROM --platform $BUILDPLATFORM golang:1.23`
/// or `COPY --from build /out /app`: BuildKit's parser takes the flag and leaves the value among
/// the arguments, then its builder stops ("missing a value on flag"). Only `--link`, `--parents`
/// and `--keep-git-dir` stand alone. compose refuses the same flags in templates and Stagefiles.
///
/// Source: moby/buildkit `frontend/dockerfile/instructions/bflag.go` (`BFlags.Parse`: a string
/// flag without `=` is an error); Dockerfile reference, "FROM", "COPY", "RUN --mount".
struct SB042FlagWithoutValue: LintRule {
    let id = "SB042"
    let name = "flag-without-value"
    let severity = LintSeverity.error
    let summary = "A builder flag is written without =VALUE; BuildKit stops the build."
    let hint = "join the value to its flag with =, e.g. FROM --platform=$BUILDPLATFORM golang:1.23"
    let triggeringExamples = [
        "FROM --platform $BUILDPLATFORM golang:1.23 AS build\n",
        "FROM alpine:3.20 AS build\nFROM alpine:3.20\nCOPY --from build /out/app /app\n",
        "FROM alpine:3.20\nRUN --mount type=cache,target=/root/.cache true\n",
    ]
    let nonTriggeringExamples = [
        "FROM --platform=$BUILDPLATFORM golang:1.23 AS build\n",
        "FROM alpine:3.20\nCOPY --link --parents a/b /dst/\n",
        "FROM alpine:3.20\nADD --keep-git-dir https://example.com/repo.git#v1 /src\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.flatMap { entry in
            Stagefile.flagsWithoutValue(of: entry.instruction).map { finding($0.message, at: $0.location) }
        }
    }
}
