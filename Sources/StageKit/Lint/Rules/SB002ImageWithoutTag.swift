import DockerfileSyntax

/// SB002: an image is named without a tag, or with the tag `latest`. Such a reference says
/// nothing about the version the build expects, and `stagebuild lock` would pin whatever the
/// registry serves that day; relocking can jump to a new major version. A reference with a
/// digest and no tag is fully pinned and passes.
///
/// Source: hadolint DL3006 ("Always tag the version of an image explicitly") and DL3007
/// ("Using latest is prone to errors"); Docker docs, "Building best practices".
struct SB002ImageWithoutTag: LintRule {
    let id = "SB002"
    let name = "image-latest-or-untagged"
    let severity = LintSeverity.warning
    let summary = "An image is named without a tag or with the tag latest."
    let hint = "name the version you build on with an explicit tag, e.g. debian:12.11-slim, and pin it by digest"
    let triggeringExamples = [
        "FROM debian\n",
        "FROM debian:latest\n",
        "FROM debian:latest@sha256:78b011a54a92e3ae847c3348dcbedb9575a3ea3bb91e7bd9b3b7a80e797c99cb\n",
        "FROM localhost:5000/team/app\n",
        "FROM debian:bookworm-slim\nCOPY --from=nginx /etc/nginx/mime.types /etc/mime.types\n",
    ]
    let nonTriggeringExamples = [
        "FROM debian:bookworm-slim\n",
        "FROM debian@sha256:78b011a54a92e3ae847c3348dcbedb9575a3ea3bb91e7bd9b3b7a80e797c99cb\n",
        "FROM localhost:5000/team/app:1.4.2\n",
        "FROM scratch\n",
        "FROM node:20.15-bookworm-slim AS build\nRUN npm ci\nFROM build\nCMD [\"node\", \"server.js\"]\n",
        "FROM stage:debian\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        document.images.compactMap { image in
            if image.tag == "latest" {
                return finding("image \(image.reference) uses the tag latest", at: image.location)
            }
            if image.tag == nil && image.digest == nil {
                return finding("image \(image.reference) has no tag", at: image.location)
            }
            return nil
        }
    }
}
