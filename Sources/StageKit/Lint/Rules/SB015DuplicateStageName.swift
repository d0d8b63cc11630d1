import DockerfileSyntax

/// SB015: two build stages have the same name after `AS`. BuildKit compares stage names
/// without regard to case and rejects the file ("duplicate stage name"); before it did, the
/// later stage silently shadowed the earlier one for `FROM NAME` and `COPY --from=NAME`. The
/// finding points at the repeated name and says where it was first used.
///
/// Source: Dockerfile reference, "FROM" ("AS name"); BuildKit's Dockerfile frontend, which
/// fails with "duplicate stage name". hadolint DL3024 ("FROM aliases (stage names) must be
/// unique").
struct SB015DuplicateStageName: LintRule {
    let id = "SB015"
    let name = "duplicate-stage-name"
    let severity = LintSeverity.error
    let summary = "Two build stages have the same name after AS; BuildKit rejects the file."
    let hint = "give every build stage its own name, and point FROM and COPY --from at the one you mean"
    let triggeringExamples = [
        "FROM golang:1.22 AS build\nRUN go build ./...\nFROM golang:1.22 AS build\nRUN go vet ./...\n",
        "FROM debian:bookworm-slim AS base\nFROM debian:bookworm-slim as Base\n",
        "FROM stage:debian AS app\nUSE node-service\nFROM stage:debian AS app\n",
    ]
    let nonTriggeringExamples = [
        "FROM golang:1.22 AS build\nFROM debian:bookworm-slim AS runtime\nCOPY --from=build /out /app\n",
        "FROM debian:bookworm-slim AS base\nFROM base AS app\nFROM base AS test\n",
        "FROM debian:bookworm-slim\nFROM debian:bookworm-slim\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var firstLines: [String: Int] = [:]
        var findings: [LintFinding] = []
        for stage in document.stages {
            guard let from = stage.from, let written = from.instruction.asFrom?.alias, let alias = stage.alias else { continue }
            if let firstLine = firstLines[alias] {
                findings.append(
                    finding(
                        "build stage name \(written.text) is already used by the stage on line \(firstLine)",
                        at: from.instruction.location(of: written)))
            } else {
                firstLines[alias] = from.start.line
            }
        }
        return findings
    }
}
