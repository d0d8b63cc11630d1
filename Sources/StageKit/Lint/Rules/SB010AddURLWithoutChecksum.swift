import DockerfileSyntax

/// SB010: `ADD` downloads a URL (or clones a Git repository) without `--checksum`, so the
/// build takes whatever the server sends that day, unchecked.
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
    ]
    let nonTriggeringExamples = [
        "ADD --checksum=sha256:7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d https://example.com/tool-1.2.3.tar.gz /opt/\n",
        "ADD vendor/tool-1.2.3.tar.gz /opt/\n",
        "COPY --from=build /out/app /app\n",
    ]

    private static let remotePrefixes = ["http://", "https://", "git@", "git://", "ssh://"]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for entry in document.entries where entry.kind == "ADD" {
            guard let add = entry.instruction.asCopy, add.checksum?.text.isEmpty ?? true else { continue }
            for source in add.sources where Self.remotePrefixes.contains(where: { source.text.lowercased().hasPrefix($0) }) {
                findings.append(finding("ADD \(source.text) without --checksum", at: entry.instruction.location(of: source)))
            }
        }
        return findings
    }
}
