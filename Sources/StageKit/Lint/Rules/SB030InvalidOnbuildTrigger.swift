import DockerfileSyntax

/// SB030: `ONBUILD` registers `FROM`, `MAINTAINER` or another `ONBUILD`. BuildKit's parser
/// reads the line, but its builder refuses it and stops the build ("Chaining ONBUILD via
/// `ONBUILD ONBUILD` isn't allowed", "FROM isn't allowed as an ONBUILD trigger").
///
/// Source: Dockerfile reference, "ONBUILD" ("ONBUILD may not trigger FROM or MAINTAINER
/// instructions", "chaining ONBUILD instructions … isn't allowed"); hadolint DL3043
/// ("ONBUILD, FROM or MAINTAINER triggered from within ONBUILD instruction").
struct SB030InvalidOnbuildTrigger: LintRule {
    let id = "SB030"
    let name = "invalid-onbuild-trigger"
    let severity = LintSeverity.error
    let summary = "ONBUILD registers FROM, MAINTAINER or ONBUILD; BuildKit stops the build."
    let hint = "register only instructions that may run in the image built from this one, e.g. ONBUILD COPY . /app"
    let triggeringExamples = [
        "FROM alpine:3.20\nONBUILD FROM alpine:3.20\n",
        "FROM alpine:3.20\nONBUILD ONBUILD RUN echo nested\n",
        "FROM alpine:3.20\nonbuild maintainer someone@example.com\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20\nONBUILD COPY . /app\nONBUILD RUN make -C /app\n",
        "FROM alpine:3.20\nRUN echo 'ONBUILD FROM x'\n",
    ]

    /// The instructions `ONBUILD` may not register.
    private static let refused: Set<Keyword> = [.from, .maintainer, .onbuild]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.compactMap { entry in
            guard entry.keyword == .onbuild, let trigger = entry.instruction.onbuildTrigger,
                let keyword = trigger.knownKeyword, Self.refused.contains(keyword)
            else { return nil }
            return finding("ONBUILD \(trigger.kind) is not allowed: BuildKit refuses the instruction", at: trigger.location)
        }
    }
}
