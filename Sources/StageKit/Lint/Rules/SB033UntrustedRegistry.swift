import DockerfileSyntax

/// SB033: an image comes from a registry the project's lint config does not list under
/// `trustedRegistries`. The rule is off until a config lists registries; then every `FROM`,
/// `COPY --from` and `RUN --mount=…,from=` image is checked. An image without a registry
/// part comes from Docker Hub, `docker.io`; `*.domain` trusts every host under the domain.
///
/// Source: hadolint DL3026 ("Use only an allowed registry in the FROM image") and its
/// `trustedRegistries` config key.
struct SB033UntrustedRegistry: LintRule {
    let id = "SB033"
    let name = "untrusted-registry"
    let severity = LintSeverity.error
    let summary = "An image comes from a registry the lint config does not list under trustedRegistries."
    let hint = "use an image from a trusted registry, or add its registry to trustedRegistries in .stagebuild.yaml"
    /// The registries the config trusts; `nil` when it lists none, which leaves the rule off.
    var trustedRegistries: [String]?

    var exampleConfiguration: LintConfiguration { LintConfiguration(trustedRegistries: ["docker.io", "*.corp.example"]) }
    let triggeringExamples = [
        "FROM quay.io/prometheus/busybox:glibc\n",
        "FROM debian:bookworm-slim\nCOPY --from=ghcr.io/acme/tools:1.2 /bin/tool /usr/local/bin/tool\n",
        "FROM corp.example.evil.test/base:1\n",
        "FROM localhost:5000/team/app:1.4.2\n",
    ]
    let nonTriggeringExamples = [
        "FROM debian:bookworm-slim\n",
        "FROM docker.io/library/debian:bookworm-slim\n",
        "FROM index.docker.io/library/node:20\n",
        "FROM registry.corp.example/team/app:1.4.2\n",
        "FROM scratch\n",
        "FROM debian:bookworm-slim AS build\nFROM build\n",
        "FROM stage:debian\n",
    ]

    func configured(by configuration: LintConfiguration) -> any LintRule {
        SB033UntrustedRegistry(trustedRegistries: configuration.trustedRegistries)
    }

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        guard let trustedRegistries else { return [] }
        return document.images.compactMap { image in
            guard let reference = try? ImageReference(parsing: image.reference),
                !TrustedRegistry.trusts(reference.domain, patterns: trustedRegistries)
            else { return nil }
            return finding(
                "image \(image.reference) comes from \(reference.domain), which trustedRegistries does not list",
                at: image.location)
        }
    }
}
