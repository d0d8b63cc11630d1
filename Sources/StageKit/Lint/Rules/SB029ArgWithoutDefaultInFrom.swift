import DockerfileSyntax

/// SB029: a `FROM` image uses a global `ARG` declared without a default, and with the
/// defaults alone the image is empty or no valid reference (`FROM busybox:${TAG}` after
/// `ARG TAG` gives `busybox:`). The build then works only when every build passes
/// `--build-arg`, and fails with "invalid reference format" when one does not. A reference
/// whose expansion still is a valid image (`FROM node:20${VARIANT}`), one with a fallback
/// (`${TAG:-latest}`), and an `ARG` that is not declared at all are left alone.
///
/// Source: BuildKit's Dockerfile checks, InvalidDefaultArgInFrom ("Default value for global
/// ARG results in an empty or invalid base image name"). hadolint has no equivalent.
struct SB029ArgWithoutDefaultInFrom: LintRule {
    let id = "SB029"
    let name = "arg-without-default-in-from"
    let severity = LintSeverity.warning
    let summary = "A FROM image uses a global ARG without a default, and the defaults give no valid image."
    let hint = "give the global ARG a default, e.g. ARG TAG=3.20, or a fallback in FROM: ${TAG:-3.20}"
    let triggeringExamples = [
        "ARG TAG\nFROM alpine:${TAG}\n",
        "ARG REGISTRY\nARG IMAGE\nFROM ${REGISTRY}/${IMAGE} AS base\n",
        "ARG BASE\nFROM $BASE\nRUN true\n",
    ]
    let nonTriggeringExamples = [
        "ARG TAG=3.20\nFROM alpine:${TAG}\n",
        "ARG VARIANT\nFROM node:20${VARIANT}\n",
        "ARG TAG\nFROM alpine:${TAG:-3.20}\n",
        "ARG TAG=3.20\nARG TAG\nFROM alpine:${TAG}\n",
        "FROM alpine:3.20\nARG TAG\nRUN echo \"$TAG\"\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        guard let first = document.stages.first, first.from == nil else { return [] }
        // The global arguments declared without a default that no other declaration gives one.
        var withoutDefault: Set<String> = []
        for entry in document.entries(of: first) {
            for declaration in entry.instruction.asArg?.declarations ?? []
            where declaration.defaultValue == nil && document.variables.globalValue(of: declaration.name.text) == nil {
                withoutDefault.insert(declaration.name.text)
            }
        }
        guard !withoutDefault.isEmpty else { return [] }
        var findings: [LintFinding] = []
        for stage in document.stages where !stage.isTemplateReference {
            guard let from = stage.from, let base = from.instruction.asFrom?.base else { continue }
            let written = document.unquoted(base.text)
            // Only a reference that has no value otherwise, and gets one when those arguments are empty.
            guard document.expandGlobal(written) == nil else { continue }
            var used: [String] = []
            let expanded = DockerfileDocument.expand(written) { name in
                guard withoutDefault.contains(name) else { return document.variables.globalValue(of: name) }
                if !used.contains(name) { used.append(name) }
                return .known("")
            }
            guard let expanded, !used.isEmpty, expanded.isEmpty || (try? ImageReference(parsing: expanded)) == nil else {
                continue
            }
            let names = used.count == 1 ? "ARG \(used[0]) has" : "ARGs \(used.joined(separator: ", ")) have"
            let result = expanded.isEmpty ? "an empty image name" : "\(expanded), no valid image"
            findings.append(
                finding(
                    "\(names) no default, so FROM \(base.text) gives \(result)",
                    at: from.instruction.location(of: base)))
        }
        return findings
    }
}
