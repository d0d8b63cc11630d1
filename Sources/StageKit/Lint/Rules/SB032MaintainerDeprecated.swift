import DockerfileSyntax

/// SB032: `MAINTAINER` is deprecated; the image's author belongs in the OCI label
/// `org.opencontainers.image.authors`, which tools read. `ONBUILD MAINTAINER` is SB030's.
///
/// Graded `warning` as BuildKit reports it; hadolint grades DL4000 `error`, though the build
/// does not fail.
///
/// Source: BuildKit's Dockerfile checks, MaintainerDeprecated; Dockerfile reference,
/// "MAINTAINER (deprecated)"; hadolint DL4000 ("MAINTAINER is deprecated"); OCI image spec,
/// "Pre-Defined Annotation Keys" (`org.opencontainers.image.authors`).
struct SB032MaintainerDeprecated: LintRule {
    let id = "SB032"
    let name = "maintainer-deprecated"
    let severity = LintSeverity.warning
    let summary = "MAINTAINER is deprecated."
    let hint = #"use LABEL org.opencontainers.image.authors="NAME <EMAIL>" instead"#
    let triggeringExamples = [
        "FROM alpine:3.20\nMAINTAINER Jane Doe <jane@example.com>\n",
        "FROM alpine:3.20\nmaintainer jane@example.com\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20\nLABEL org.opencontainers.image.authors=\"Jane Doe <jane@example.com>\"\n",
        "FROM alpine:3.20\nLABEL maintainer=jane@example.com\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.entries.compactMap { entry in
            guard entry.keyword == .maintainer else { return nil }
            return finding("MAINTAINER is deprecated", at: entry.start)
        }
    }
}
