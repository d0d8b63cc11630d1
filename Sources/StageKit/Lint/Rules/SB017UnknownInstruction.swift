import DockerfileSyntax

/// SB017: an instruction the Dockerfile reference does not have, such as a misspelt `RUNN`.
/// BuildKit's parser reads any word as an instruction; the build then stops with "unknown
/// instruction". `USE` counts as known, as lint reads Stagefiles too; `stagebuild compose`
/// refuses unknown instructions in a Stagefile the same way.
///
/// Source: Dockerfile reference (its list of instructions); BuildKit's Dockerfile frontend,
/// which fails with "unknown instruction".
struct SB017UnknownInstruction: LintRule {
    let id = "SB017"
    let name = "unknown-instruction"
    let severity = LintSeverity.error
    let summary = "An instruction the Dockerfile reference does not have; BuildKit stops the build."
    let hint = "correct the instruction's name"
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nRUNN apt-get update\n",
        "FROM alpine:3.20\nCOPPY . /app\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20\nrun echo lower case is fine\nONBUILD RUN echo later\n",
        "FROM stage:debian AS app\nUSE node-service\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.compactMap { entry in
            Stagefile.unknownInstructionMessage(for: entry.instruction).map { finding($0, at: entry.start) }
        }
    }
}
