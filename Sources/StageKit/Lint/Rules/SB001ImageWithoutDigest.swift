import DockerfileSyntax

/// SB001: an image is named by tag only, not pinned by digest. A tag can be moved to another
/// image at any time, so the same Dockerfile builds on different bases from one day to the
/// next. Checks `FROM`, `COPY --from=IMAGE` and `RUN --mount=…,from=IMAGE`; build stage
/// names, `scratch` and a Stagefile's `FROM stage:NAME` are not images.
///
/// Source: Docker docs, "Building best practices", section "Pin base image versions"; the OCI
/// image spec, "Digests". hadolint has no equivalent (DL3006 and DL3007 check the tag only).
struct SB001ImageWithoutDigest: LintRule {
    let id = "SB001"
    let name = "image-without-digest"
    let severity = LintSeverity.warning
    let summary = "An image (FROM, COPY --from, RUN --mount from=) is not pinned by digest."
    let hint = "append @sha256:<digest> to the reference, keeping the tag for readers (stagebuild lock resolves tags to digests)"
    let triggeringExamples = [
        "FROM debian:bookworm-slim\n",
        "FROM scratch\nCOPY --from=nginx:1.27 /etc/nginx/nginx.conf /etc/nginx/nginx.conf\n",
        """
        FROM debian:bookworm-slim@sha256:78b011a54a92e3ae847c3348dcbedb9575a3ea3bb91e7bd9b3b7a80e797c99cb
        RUN --mount=type=bind,from=alpine:3.20,source=/etc/apk,target=/mnt/apk ls /mnt/apk
        """,
        "ARG BASE=debian:bookworm-slim\nFROM ${BASE}\n",
        "FROM debian:bookworm-slim@sha256:78b011a5\n",
    ]
    let nonTriggeringExamples = [
        "FROM debian:bookworm-slim@sha256:78b011a54a92e3ae847c3348dcbedb9575a3ea3bb91e7bd9b3b7a80e797c99cb\n",
        """
        FROM golang:1.22@sha256:7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d AS build
        RUN go build -o /out/app .
        FROM scratch
        COPY --from=build /out/app /app
        COPY --from=0 /etc/ssl/certs /etc/ssl/certs
        """,
        "FROM stage:debian AS app\nUSE node-service APP_PORT=3000\n",
        "# A layer template: 'build' is a build stage of the Stagefile that uses it.\nCOPY --from=build /out/bin/app /usr/local/bin/app\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.images.compactMap { image in
            guard !image.isPinnedByDigest else { return nil }
            let subject = image.origin == .from ? "image" : "image in --from"
            let problem =
                image.digest == nil ? "is not pinned by digest" : "has a malformed digest (expected sha256: and 64 hex digits)"
            return finding("\(subject) \(image.reference) \(problem)", at: image.location)
        }
    }
}
