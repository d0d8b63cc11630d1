import DockerfileSyntax

/// SB028: an archive or program that curl or wget downloads is used without a checksum check:
/// piped straight into an unpacker (`curl … | tar -xz`, `wget -qO- … | xz -d`), or written to
/// a file (`curl -o FILE`, `curl -O`, `curl URL > FILE`, `wget URL`, `wget -O FILE`) that a later
/// command of the build stage unpacks (`tar`, `unzip`, `gunzip`, …) or makes executable (`chmod
/// +x`, `chmod 755`, `install -m 0755`) while no check covers it (`Downloads`: `sha256sum -c`, a
/// `*sum` output compared in a test or searched by `grep`, or a signature or provenance check
/// such as `gpg --verify`, `minisign -V`, `cosign verify-blob`, `slsa-verifier
/// verify-artifact`, `gh attestation verify`; never one whose failure `|| true` throws away).
/// Whatever the server sends that day goes into the image, and two builds may hold different
/// files. A download whose every URL names a commit or digest (a path segment of 40 or 64 hex
/// digits, as `raw.githubusercontent.com/…/<commit>/…`) is fixed already.
///
/// Only these clear shapes are judged: a file counts when the later command names it as the
/// downloader wrote it (`-O` and `wget URL` write the URL's last path component, in the
/// `--output-dir` or `-P` folder when one is given). A check covers the files it names, or
/// every file when it reads a checksum list; a check after the use, in the same `RUN` or a
/// later one of the build stage, counts too (minio's release Dockerfile verifies with
/// `minisign` in the `RUN` after the download), as the build fails there before the image is
/// made. Running a downloaded script is SB009's.
///
/// Source: Docker docs, "Building best practices" (verify downloads with a checksum); hadolint
/// has no equivalent (DL4006 asks for `set -o pipefail` in such pipes).
struct SB028DownloadWithoutChecksum: LintRule {
    let id = "SB028"
    let name = "download-without-checksum"
    let severity = LintSeverity.warning
    let summary = "An archive or program downloaded with curl or wget is unpacked or made executable without a checksum check."
    let hint = "download to a file, check it with echo '<sha256>  FILE' | sha256sum -c -, then unpack or install it"
    let triggeringExamples = [
        "FROM debian:bookworm-slim\nRUN curl -fsSL https://example.com/tool-1.2.3.tar.gz | tar -xz -C /opt\n",
        "RUN wget -qO- https://example.com/tool-1.2.3.tar.xz | xz -d | tar -x -C /opt\n",
        #"""
        RUN curl -fsSLo /tmp/tool.tar.gz https://example.com/tool-1.2.3.tar.gz \
            && tar -xzf /tmp/tool.tar.gz -C /usr/local/bin \
            && rm /tmp/tool.tar.gz
        """#,
        #"""
        RUN curl -fsSL --output /usr/local/bin/tini https://example.com/tini-amd64 \
            && chmod +x /usr/local/bin/tini
        """#,
        "RUN cd /tmp && wget -q https://example.com/dist/tool-1.2.3.zip && unzip -q tool-1.2.3.zip -d /opt\n",
        "RUN curl -fsSLO --output-dir /tmp https://example.com/tool && chmod 0755 /tmp/tool\n",
        #"""
        RUN curl -fsSLo /tmp/i.tgz https://example.com/i.tgz \
            && echo "7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d  /etc/hostname" | sha256sum -c - \
            && tar -xzf /tmp/i.tgz
        """#,
        "FROM alpine:3.20\nRUN curl -fsSLo /tmp/l.tgz https://example.com/l.tgz\nRUN tar -xzf /tmp/l.tgz\n",
        "RUN curl -fsSL https://example.com/tool > /usr/local/bin/tool && chmod u+x /usr/local/bin/tool\n",
        "RUN curl -fsSLo /tmp/t https://example.com/t && install -m 0755 /tmp/t /usr/local/bin/t\n",
        "RUN curl -fsSLo k.tgz https://example.com/k.tgz && sha256sum -c k.tgz.sha256 || true && tar xzf k.tgz\n",
        #"""
        FROM alpine:3.20
        RUN curl -fsSL https://example.com/tool -o /usr/local/bin/tool && chmod +x /usr/local/bin/tool
        RUN minisign -Vqm /usr/local/bin/other -P RWQf6LRCGA9i53mlYecO4IzT
        FROM alpine:3.20
        RUN minisign -Vqm /usr/local/bin/tool -P RWQf6LRCGA9i53mlYecO4IzT
        """#,
        #"RUN curl -fsSLo k.tgz https://example.com/k.tgz && [ "$(cat k.sha256)" = "$K_SHA" ] && tar xzf k.tgz\#n"#,
    ]
    let nonTriggeringExamples = [
        #"""
        RUN curl -fsSLo /tmp/tool.tar.gz https://example.com/tool-1.2.3.tar.gz \
            && echo "7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d  /tmp/tool.tar.gz" | sha256sum -c - \
            && tar -xzf /tmp/tool.tar.gz -C /usr/local/bin
        """#,
        #"""
        RUN wget -q https://example.com/tool-1.2.3.tar.gz https://example.com/tool-1.2.3.tar.gz.asc \
            && gpg --batch --verify tool-1.2.3.tar.gz.asc tool-1.2.3.tar.gz \
            && tar -xzf tool-1.2.3.tar.gz
        """#,
        #"""
        RUN curl -fsSLO https://example.com/tool && curl -fsSLO https://example.com/SHA256SUMS \
            && sha256sum --check --ignore-missing SHA256SUMS && chmod +x tool
        """#,
        "RUN curl -fsSLo /tmp/notes.txt https://example.com/notes.txt && chmod 0644 /tmp/notes.txt\n",
        "RUN tar -xzf /vendor/tool-1.2.3.tar.gz -C /opt && curl -fsS https://example.com/health\n",
        "RUN curl -fsSLo k.tgz https://example.com/k.tgz && minisign -Vm k.tgz -P RWQf6LRCGA9i53mlYecO4IzT && tar xzf k.tgz\n",
        "RUN curl -fsSLo k.tgz https://example.com/k.tgz && cosign verify-blob --key k.pub --signature k.sig k.tgz && tar xzf k.tgz\n",
        "RUN curl -fsSLo k.tgz https://example.com/k.tgz && slsa-verifier verify-artifact k.tgz --provenance-path k.intoto.jsonl --source-uri github.com/example/k && tar xzf k.tgz\n",
        "RUN curl -fsSLo k.tgz https://example.com/k.tgz && gh attestation verify k.tgz --owner example && tar xzf k.tgz\n",
        #"RUN curl -fsSLo k.tgz https://example.com/k.tgz && [ "$(sha256sum k.tgz | cut -d' ' -f1)" = "$K_SHA" ] && tar xzf k.tgz\#n"#,
        "RUN curl -fsSLo d.tgz https://example.com/d.tgz && sha256sum d.tgz | grep -q \"$D_SHA\" && tar xzf d.tgz\n",
        "ENV DIND_COMMIT=8d9e3502aba39127e4d12196dae16d306f76993d\n"
            + "RUN wget -O /usr/local/bin/dind \"https://raw.githubusercontent.com/docker/docker/${DIND_COMMIT}/hack/dind\" && chmod +x /usr/local/bin/dind\n",
        #"""
        FROM alpine:3.20
        RUN curl -fsSL https://example.com/tool -o /usr/local/bin/tool && chmod +x /usr/local/bin/tool
        RUN minisign -Vqm /usr/local/bin/tool -x /tmp/tool.minisig -P RWQf6LRCGA9i53mlYecO4IzT
        """#,
    ]

    /// Programs that unpack an archive or a compressed stream.
    private static let unpackers: Set<String> = [
        "tar", "bsdtar", "unzip", "gunzip", "gzip", "xz", "unxz", "zstd", "unzstd", "bunzip2", "bzip2",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        // Downloads and findings live as long as their build stage: a file downloaded in one
        // RUN may be used in the next, and a check in a later RUN that covers a file withdraws
        // the findings on it.
        var downloaded: [String: String] = [:]
        var open: [(file: String, finding: LintFinding)] = []
        var currentStage: Int?
        for script in document.runScripts {
            let stage = document.stageIndex(ofEntry: script.entryIndex)
            if stage != currentStage {
                findings += open.map(\.finding)
                open = []
                downloaded = [:]
                currentStage = stage
            }
            // The downloader whose output the current pipeline carries, until one unpacker is reported.
            var piping: String?
            var pipedFrom: ShellScript.Command?
            let commands = script.commands
            for (position, command) in commands.enumerated() {
                let next = commands.indices.contains(position + 1) ? commands[position + 1] : nil
                if Downloads.isCheck(command, pipedFrom: pipedFrom, next: next) {
                    let covered = { (file: String) in Downloads.covers(command, pipedFrom: pipedFrom, file: file) }
                    downloaded = downloaded.filter { !covered($0.key) }
                    open.removeAll { covered($0.file) }
                }
                if let program = command.program, let word = command.invocation.first {
                    if let source = piping, Self.unpackers.contains(program) {
                        findings.append(
                            finding("\(program) unpacks what \(source) downloads without a checksum check", at: word.location))
                        piping = nil
                    }
                    for file in Self.usedFiles(command) {
                        guard let downloader = downloaded[file.text] else { continue }
                        let verb = ["chmod", "install"].contains(program) ? "makes executable" : "unpacks"
                        let message = "\(program) \(verb) \(file.text), downloaded by \(downloader), without a checksum check"
                        open.append((file.text, finding(message, at: file.location)))
                    }
                    if Downloads.downloaders.contains(program) {
                        let fixed = Downloads.fetchesOnlyFixedContent(
                            command, expand: { document.expand($0, before: script.entryIndex) })
                        for file in Downloads.writtenFiles(command, program: program) where !fixed { downloaded[file] = program }
                        piping = piping ?? program
                    }
                }
                pipedFrom = command.separator == .pipe ? command : nil
                if command.separator != .pipe { piping = nil }
            }
        }
        return findings + open.map(\.finding)
    }

    /// The arguments of an unpacker, and the files of a `chmod` or `install -m` whose mode makes
    /// them executable: the words a download may be named by.
    private static func usedFiles(_ command: ShellScript.Command) -> [ShellScript.Word] {
        guard let program = command.program else { return [] }
        if unpackers.contains(program) {
            return command.arguments.map { word in
                guard word.text.hasPrefix("--file=") else { return word }
                return ShellScript.Word(
                    text: String(word.text.dropFirst("--file=".count)), isQuoted: word.isQuoted, location: word.location)
            }
        }
        if program == "install" {
            // `install -m MODE SOURCE… DEST` (or `--mode=MODE`) copies the sources with that mode.
            var arguments = Array(command.arguments)
            var mode: String?
            var operands: [ShellScript.Word] = []
            while !arguments.isEmpty {
                let word = arguments.removeFirst()
                if word.text == "-m", !arguments.isEmpty {
                    mode = arguments.removeFirst().text
                } else if word.text.hasPrefix("--mode=") {
                    mode = String(word.text.dropFirst("--mode=".count))
                } else if !word.text.hasPrefix("-") {
                    operands.append(word)
                }
            }
            guard let mode, makesExecutable(mode), operands.count >= 2 else { return [] }
            return Array(operands.dropLast())
        }
        guard program == "chmod" else { return [] }
        let operands = command.arguments.filter { !$0.text.hasPrefix("-") }
        guard let mode = operands.first, makesExecutable(mode.text) else { return [] }
        return Array(operands.dropFirst())
    }

    /// An octal mode with an execute bit, or a symbolic one that adds or sets `x`.
    private static func makesExecutable(_ mode: String) -> Bool {
        if mode.allSatisfy(\.isNumber) {
            return mode.suffix(3).contains { $0.wholeNumberValue.map { $0 % 2 == 1 } ?? false }
        }
        return mode.split(separator: ",").contains { clause in
            clause.drop { $0 != "+" && $0 != "=" }.contains("x")
        }
    }
}
