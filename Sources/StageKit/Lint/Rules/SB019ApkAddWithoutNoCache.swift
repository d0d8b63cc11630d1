import DockerfileSyntax

/// SB019: `apk add` runs without `--no-cache` (or `--no-network`, which fetches nothing to
/// keep), and the same `RUN` does not remove `/var/cache/apk` afterwards, so the package index
/// and downloaded packages stay in the layer. A cache or tmpfs mount on `/var/cache/apk` or
/// `/etc/apk/cache` keeps them out of the layer too.
///
/// Source: hadolint DL3019 ("Use the --no-cache switch"); apk-tools docs, apk(8)
/// (`--no-cache`: do not use any local cache path).
struct SB019ApkAddWithoutNoCache: LintRule {
    let id = "SB019"
    let name = "apk-add-without-no-cache"
    let severity = LintSeverity.info
    let summary = "apk add runs without --no-cache and the RUN does not remove /var/cache/apk."
    let hint = "use apk add --no-cache (then apk update is not needed), or end the same RUN with rm -rf /var/cache/apk/*"
    let triggeringExamples = [
        "FROM alpine:3.20\nRUN apk add curl=8.9.1-r2\n",
        "RUN apk update && apk add --virtual .deps gcc=13.2.1_git20240309-r0\n",
        "RUN apk add tini=0.19.0-r3\nRUN rm -rf /var/cache/apk/*\n",
        "RUN rm -rf /var/cache/apk/* && apk add tini=0.19.0-r3\n",
    ]
    let nonTriggeringExamples = [
        "RUN apk add --no-cache curl=8.9.1-r2\n",
        "RUN apk --no-cache add tini=0.19.0-r3\n",
        "RUN apk add --no-network --virtual .redis-rundeps $runDeps\n",
        "RUN apk update && apk add tini=0.19.0-r3 && rm -rf /var/cache/apk/*\n",
        "RUN --mount=type=cache,target=/var/cache/apk apk add tini=0.19.0-r3\n",
        "RUN --mount=type=cache,target=/etc/apk/cache,sharing=locked apk add tini=0.19.0-r3\n",
        "RUN --mount=type=cache,target=/etc/apk/cache/ apk add --virtual .build gcc=13.2.1_git20240309-r0\n",
    ]

    /// apk's cache folders: `/var/cache/apk`, and `/etc/apk/cache`, which apk uses when it
    /// exists (Alpine wiki, "Local APK cache"; `setup-apkcache` links it to the other).
    private static let cacheFolders: Set<String> = ["/var/cache/apk", "/etc/apk/cache"]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            let cached = script.mounts.contains { mount in
                let target = mount.target.map {
                    $0.hasSuffix("/") ? String($0.dropLast()) : $0
                }
                return target.map(Self.cacheFolders.contains) ?? false
            }
            guard !cached else { continue }
            let removesCache = { (later: ShellScript.Command) -> Bool in
                later.program == "rm" && later.arguments.contains { $0.text.hasPrefix("/var/cache/apk") }
            }
            for (command, isFollowed) in script.commands(followedBy: removesCache) {
                guard let apk = PackageCommand.apk(command), apk.action == "add", let add = apk.subcommand,
                    !apk.has(["--no-cache", "--no-network"]), !isFollowed
                else { continue }
                findings.append(finding("apk add without --no-cache keeps /var/cache/apk in the layer", at: add.location))
            }
        }
        return findings
    }
}
