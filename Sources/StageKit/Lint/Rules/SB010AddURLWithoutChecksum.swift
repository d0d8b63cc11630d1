import DockerfileSyntax

/// SB010: `ADD` downloads a URL (or clones a Git repository) without `--checksum`, so the
/// build takes whatever the server sends that day, unchecked.
///
/// A source counts as BuildKit reads it: quotes removed and build arguments expanded
/// (`ADD "https://…"`, `ADD ${URL}` with a URL default).
///
/// A download that a later `RUN` of the build stage checks (`Downloads`: a check that names the
/// file, or reads a checksum list) is checked, as SB028 counts it.
///
/// A Git source whose ref is a full commit ID (40 hex digits, or 64 for SHA-256 repositories),
/// as `#<commit>` or BuildKit's `?ref=`/`?commit=` query (argument defaults expanded, as for
/// `FROM`), is fixed already: Git checks object IDs, as SB011 accepts for `git checkout`.
///
/// Source: Dockerfile reference, "ADD --checksum" (Dockerfile syntax 1.6 for HTTP sources,
/// 1.10 for Git commits); hadolint has no equivalent (DL3020 asks for COPY for local files).
struct SB010AddURLWithoutChecksum: LintRule {
    let id = "SB010"
    let name = "add-url-without-checksum"
    let severity = LintSeverity.warning
    let summary = "ADD downloads a URL or Git repository without --checksum."
    let hint =
        "add --checksum=sha256:<hex> for a file, or --checksum=<commit> for a Git source, or download in RUN and check the SHA-256"
    let triggeringExamples = [
        "ADD https://example.com/tool-1.2.3.tar.gz /opt/\n",
        "ADD --chmod=0755 https://example.com/bin/tool /usr/local/bin/tool\n",
        "ADD https://github.com/moby/buildkit.git#v0.13.0 /src\n",
        "ADD [\"https://example.com/a b.tar.gz\", \"/opt/\"]\n",
        "ADD https://github.com/moby/buildkit.git?ref=master /src\n",
        "ARG REF=v1.2\nADD https://github.com/example/tool.git#${REF} /src\n",
        "ADD \"https://example.com/tool-1.2.3.tar.gz\" /opt/\n",
        "ADD 'https://example.com/tool-1.2.3.tar.gz' /opt/\n",
        "ADD --chmod=755 \"https://example.com/bin/tool\" \"/usr/bin/tool\"\n",
        "ADD \"https://github.com/moby/buildkit.git#v0.12.5\" /src\n",
        "ONBUILD ADD https://example.com/x.tar.gz /x\n",
        "ARG TOOL_URL=https://example.com/tool-1.2.3.tar.gz\nADD ${TOOL_URL} /opt/\n",
    ]
    let nonTriggeringExamples = [
        "ADD --checksum=sha256:7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d https://example.com/tool-1.2.3.tar.gz /opt/\n",
        "ADD vendor/tool-1.2.3.tar.gz /opt/\n",
        "COPY --from=build /out/app /app\n",
        "ADD https://github.com/example/tool.git#0123456789abcdef0123456789abcdef01234567 /src\n",
        "ADD https://github.com/example/tool.git#0123456789abcdef0123456789abcdef01234567:docs /docs\n",
        "ARG TOOL_COMMIT=0123456789abcdef0123456789abcdef01234567\n"
            + "ADD https://github.com/example/tool.git?commit=${TOOL_COMMIT}&keep-git-dir=1 /src\n",
        "ADD git@github.com:example/tool.git?ref=0123456789abcdef0123456789abcdef01234567 /src\n",
        #"""
        FROM alpine:3.20
        ADD https://example.com/tool-1.2.3.tar.gz /tmp/
        ADD https://example.com/tool-1.2.3.tar.gz.sig /tmp/
        RUN cosign verify-blob --key /etc/tool.pub --signature /tmp/tool-1.2.3.tar.gz.sig /tmp/tool-1.2.3.tar.gz
        """#,
        "FROM alpine:3.20\nADD https://example.com/tool.tgz ./tool.tgz\nCOPY SHA256SUMS .\nRUN sha256sum -c SHA256SUMS\n",
    ]

    private static let remotePrefixes = ["http://", "https://", "git@", "git://", "ssh://"]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for (index, entry) in document.entries.enumerated() {
            // An ONBUILD trigger downloads in every image built from this one.
            let instruction = entry.keyword == .onbuild ? entry.instruction.onbuildTrigger : entry.instruction
            guard let instruction, instruction.knownKeyword == .add, let add = instruction.asCopy,
                add.checksum?.text.isEmpty ?? true
            else { continue }
            for source in add.sources {
                // BuildKit expands each source word, quotes removed, before it asks whether it
                // is a URL or a Git source (`dockerfile2llb`: `ProcessWord`, then `isHTTPSource`).
                let unquoted = document.unquoted(source.text)
                let expanded = document.expand(unquoted, before: index) ?? unquoted
                guard Self.remotePrefixes.contains(where: { expanded.lowercased().hasPrefix($0) }) else { continue }
                if Self.isGitSourceAtCommit(expanded) { continue }
                let file = Self.writtenName(source: unquoted, destination: add.destination.map { document.unquoted($0.text) })
                if let file, Self.isCheckedLater(file, after: index, in: document) { continue }
                findings.append(finding("ADD \(source.text) without --checksum", at: instruction.location(of: source)))
            }
        }
        return findings
    }

    /// The name of the file an `ADD` of a URL writes: the destination's last component, or the
    /// URL's when the destination is a folder (ends in `/` or is `.`); `nil` when unknown.
    private static func writtenName(source: String, destination: String?) -> String? {
        guard let destination else { return nil }
        let isFolder = destination.hasSuffix("/") || destination == "." || destination.hasSuffix("/.")
        let path = isFolder ? String(source.prefix { $0 != "?" && $0 != "#" }) : destination
        return path.split(separator: "/").last.map(String.init)
    }

    /// Whether a `RUN` after the `ADD`, in its build stage, checks the file: a check that covers
    /// it (`Downloads.covers`; reliza-cd's Dockerfile adds release archives and checks them with
    /// `sha256sum -c` lists and `cosign verify-blob`).
    private static func isCheckedLater(_ file: String, after index: Int, in document: DockerfileDocument) -> Bool {
        guard let stage = document.stages.first(where: { $0.entryIndices.contains(index) }) else { return false }
        let later = Set(stage.entryIndices.filter { $0 > index })
        for script in document.runScripts where later.contains(script.entryIndex) {
            var pipedFrom: ShellScript.Command?
            let commands = script.commands
            for (position, command) in commands.enumerated() {
                let next = commands.indices.contains(position + 1) ? commands[position + 1] : nil
                if Downloads.isCheck(command, pipedFrom: pipedFrom, next: next),
                    Downloads.covers(command, pipedFrom: pipedFrom, file: file)
                {
                    return true
                }
                pipedFrom = command.separator == .pipe ? command : nil
            }
        }
        return false
    }

    /// Whether a source is a Git repository at a full commit ID: `URL#ref[:subdir]`, or
    /// BuildKit's query form `URL?ref=...` / `?commit=...`.
    static func isGitSourceAtCommit(_ source: String) -> Bool {
        let lowered = source.lowercased()
        let address = lowered.prefix { $0 != "#" && $0 != "?" }
        let isGit =
            address.hasSuffix(".git") || lowered.hasPrefix("git@") || lowered.hasPrefix("git://")
            || lowered.hasPrefix("ssh://")
        guard isGit else { return false }
        var refs: [Substring] = []
        if let hash = lowered.firstIndex(of: "#") {
            refs.append(lowered[lowered.index(after: hash)...].prefix { $0 != ":" })
        }
        if let question = lowered.firstIndex(of: "?") {
            let query = lowered[lowered.index(after: question)...].prefix { $0 != "#" }
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == "ref" || parts[0] == "commit" { refs.append(parts[1]) }
            }
        }
        return refs.contains { ref in (ref.count == 40 || ref.count == 64) && ref.allSatisfy(\.isHexDigit) }
    }
}
