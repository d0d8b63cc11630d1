import DockerfileSyntax

/// SB012: the final build stage runs as root: its last `USER` is `root` or `0`, or it has no
/// `USER` at all (the default is root; hadolint misses this case). A `USER` of an earlier
/// stage that the final stage is built `FROM` counts. Without a `USER`, the finding points at
/// the stage's last `CMD` or `ENTRYPOINT`, else at its `FROM`.
///
/// Applies only to files with a `FROM`: a layer template has none, and a Stagefile's build
/// stage from `FROM stage:NAME` or with `USE` lines gets its `USER` from templates.
///
/// Source: hadolint DL3002 ("Last USER should not be root"); Docker docs, "Building best
/// practices", section "USER".
struct SB012RootUser: LintRule {
    let id = "SB012"
    let name = "root-user"
    let severity = LintSeverity.warning
    let summary = "The final build stage runs as root: its last USER is root, or it has no USER."
    let hint = "create an unprivileged user (useradd --system) and switch to it with USER before CMD or ENTRYPOINT"
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nCMD [\"bash\"]\n",
        "FROM debian:bookworm-slim\nUSER app\nRUN id\nUSER root\n",
        "FROM debian:bookworm-slim AS build\nUSER builder\nFROM debian:bookworm-slim\nENTRYPOINT [\"/app\"]\n",
        "FROM debian:bookworm-slim\nUSER 0:0\n",
    ]
    let nonTriggeringExamples = [
        "FROM debian:bookworm-slim\nRUN useradd --system app\nUSER app\nCMD [\"/app\"]\n",
        "FROM debian:bookworm-slim\nUSER root\nRUN apt-get clean\nUSER 10001:10001\n",
        "FROM debian:bookworm-slim AS base\nUSER app\nFROM base\nCMD [\"/app\"]\n",
        "# A layer template: the build stage it joins decides the user.\nRUN true\n",
        "FROM stage:debian AS app\nUSE node-service\n",
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        guard let final = document.stages.last, let from = final.from,
            !final.isTemplateReference, !document.usesLayerTemplates(final)
        else { return [] }
        var stage = final
        var visited: Set<String> = []
        while true {
            let users = document.entries(of: stage).filter { $0.instruction.kind == "USER" }
            if let user = users.last {
                let index = document.entries.firstIndex { $0.map.startLine == user.map.startLine } ?? 0
                let value = user.instruction.arguments.first ?? ""
                let expanded = LintDocument.expand(value, with: document.variables(before: index)) ?? value
                guard Self.isRoot(expanded) else { return [] }
                let location = user.location(of: value, from: user.instruction.keyword.unicodeScalars.count)
                return [finding("the final build stage switches to USER \(expanded), so it runs as root", at: location)]
            }
            guard let base = stage.base?.lowercased(), visited.insert(base).inserted,
                let parent = document.stages.last(where: {
                    $0.alias == base && $0.from?.map.startLine ?? 0 < (stage.from?.map.startLine ?? 0)
                })
            else { break }
            stage = parent
        }
        let starts = document.entries(of: final).filter { ["CMD", "ENTRYPOINT"].contains($0.instruction.kind) }
        let anchor = starts.last ?? from
        return [finding("the final build stage sets no USER, so it runs as root", at: anchor.start)]
    }

    /// `root` or `0`, with or without a group.
    private static func isRoot(_ user: String) -> Bool {
        let name = user.prefix { $0 != ":" }.lowercased()
        return name == "root" || name == "0"
    }
}
