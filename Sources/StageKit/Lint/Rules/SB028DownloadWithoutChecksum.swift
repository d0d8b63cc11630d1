import DockerfileSyntax

/// SB028: an archive or program that curl or wget downloads is used without a checksum check:
/// piped straight into an unpacker (`curl … | tar -xz`, `wget -qO- … | xz -d`), or written to
/// a file (`curl -o FILE`, `curl -O`, `wget URL`, `wget -O FILE`) that a later command of the
/// same `RUN` unpacks (`tar`, `unzip`, `gunzip`, …) or makes executable (`chmod +x`, `chmod
/// 755`) with no check (`DownloadCheck`: `sha256sum -c`, a comparison of a `*sum` output in a
/// test, or a signature or provenance check such as `gpg --verify`, `minisign -V`, `cosign
/// verify-blob`, `slsa-verifier verify-artifact`, `gh attestation verify`). Whatever the server
/// sends that day goes into the image, and two builds may hold different files. A download
/// whose every URL names a commit or digest (a path segment of 40 or 64 hex digits, as
/// `raw.githubusercontent.com/…/<commit>/…`) is fixed already.
///
/// Only these clear shapes are judged: a file counts when the later command names it as the
/// downloader wrote it (`-O` and `wget URL` write the URL's last path component, in the
/// `--output-dir` or `-P` folder when one is given). Any check between the download and the
/// use counts; a check after the use, in the same `RUN` or a later one of the build stage,
/// counts when it names the file (minio's release Dockerfile verifies with `minisign` in the
/// `RUN` after the download), as the build fails there before the image is made. Running a
/// downloaded script is SB009's.
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
        "ENV DIND_COMMIT=8d9e3502aba39127e4d12196dae16d306f76993d\n"
            + "RUN wget -O /usr/local/bin/dind \"https://raw.githubusercontent.com/docker/docker/${DIND_COMMIT}/hack/dind\" && chmod +x /usr/local/bin/dind\n",
        #"""
        FROM alpine:3.20
        RUN curl -fsSL https://example.com/tool -o /usr/local/bin/tool && chmod +x /usr/local/bin/tool
        RUN minisign -Vqm /usr/local/bin/tool -x /tmp/tool.minisig -P RWQf6LRCGA9i53mlYecO4IzT
        """#,
    ]

    private static let downloaders: Set<String> = ["curl", "wget"]

    /// Programs that unpack an archive or a compressed stream.
    private static let unpackers: Set<String> = [
        "tar", "bsdtar", "unzip", "gunzip", "gzip", "xz", "unxz", "zstd", "unzstd", "bunzip2", "bzip2",
    ]

    /// The short options of curl and wget that take a value (the rest of the cluster, or the next word).
    private static let valuedLetters: [String: Set<Character>] = [
        "curl": Set("AbcCdDeEFHKmoPQrtTuUwxXyYz"),
        "wget": Set("aABDeiIlOoPQRtTUwX"),
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        var stageOfEntry: [Int: Int] = [:]
        for (stageIndex, stage) in document.stages.enumerated() {
            for entryIndex in stage.entryIndices { stageOfEntry[entryIndex] = stageIndex }
        }
        // Findings on a downloaded file stay open until its build stage ends: a later check
        // that names the file (in this RUN or a later one of the stage) withdraws them.
        var open: [(file: String, finding: LintFinding)] = []
        var openStage: Int?
        for script in document.runScripts {
            let stage = stageOfEntry[script.entryIndex]
            if stage != openStage {
                findings += open.map(\.finding)
                open = []
                openStage = stage
            }
            // The files written by downloads since the last check, with the program that wrote each.
            var downloaded: [String: String] = [:]
            // The downloader whose output the current pipeline carries, until one unpacker is reported.
            var piping: String?
            var pipedFrom: ShellScript.Command?
            for command in script.commands {
                if DownloadCheck.isCheck(command) {
                    downloaded.removeAll()
                    open.removeAll { DownloadCheck.names(command, or: pipedFrom, file: $0.file) }
                }
                if let program = command.program, let word = command.invocation.first {
                    if let source = piping, Self.unpackers.contains(program) {
                        findings.append(
                            finding("\(program) unpacks what \(source) downloads without a checksum check", at: word.location))
                        piping = nil
                    }
                    for file in Self.usedFiles(command) {
                        guard let downloader = downloaded[file.text] else { continue }
                        let verb = program == "chmod" ? "makes executable" : "unpacks"
                        let message = "\(program) \(verb) \(file.text), downloaded by \(downloader), without a checksum check"
                        open.append((file.text, finding(message, at: file.location)))
                    }
                    if Self.downloaders.contains(program) {
                        let fixed = Self.fetchesOnlyFixedContent(
                            command, expand: { document.expand($0, before: script.entryIndex) })
                        for file in Self.writtenFiles(command, program: program) where !fixed { downloaded[file] = program }
                        piping = piping ?? program
                    }
                }
                pipedFrom = command.separator == .pipe ? command : nil
                if command.separator != .pipe { piping = nil }
            }
        }
        return findings + open.map(\.finding)
    }

    /// Whether every URL a download names holds a commit or digest as a path segment (40 or 64
    /// hex digits, build arguments and `ENV` values expanded): what it fetches cannot change.
    private static func fetchesOnlyFixedContent(_ command: ShellScript.Command, expand: (String) -> String?) -> Bool {
        let urls = command.arguments.map(\.text).filter { $0.contains("://") }
        return !urls.isEmpty
            && urls.allSatisfy { url in
                let path = (expand(url) ?? url).prefix { $0 != "?" && $0 != "#" }
                return path.split(separator: "/").contains { ($0.count == 40 || $0.count == 64) && $0.allSatisfy(\.isHexDigit) }
            }
    }

    /// The arguments of an unpacker, and the files of a `chmod` whose mode makes them
    /// executable: the words a download may be named by.
    private static func usedFiles(_ command: ShellScript.Command) -> [ShellScript.Word] {
        guard let program = command.program else { return [] }
        if unpackers.contains(program) {
            return command.arguments.map { word in
                guard word.text.hasPrefix("--file=") else { return word }
                return ShellScript.Word(
                    text: String(word.text.dropFirst("--file=".count)), isQuoted: word.isQuoted, location: word.location)
            }
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

    /// The files a curl or wget command writes: its `-o`/`-O FILE` values, else (`curl -O`,
    /// `wget URL`) each URL's last path component, also under the output folder when one is given.
    private static func writtenFiles(_ command: ShellScript.Command, program: String) -> [String] {
        let isCurl = program == "curl"
        let valued = valuedLetters[program] ?? []
        var outputs: [String] = []
        var usesRemoteNames = !isCurl
        var folder: String?
        var urls: [String] = []
        var arguments = command.arguments
        while let word = arguments.popFirst() {
            let text = word.text
            if text.hasPrefix("--") {
                let name = String(text.prefix { $0 != "=" })
                let attached = text.firstIndex(of: "=").map { String(text[text.index(after: $0)...]) }
                let isOutput = name == (isCurl ? "--output" : "--output-document")
                let isFolder = name == (isCurl ? "--output-dir" : "--directory-prefix")
                if isOutput || isFolder, let value = attached ?? arguments.popFirst()?.text {
                    if isOutput { outputs.append(value) } else { folder = value }
                }
                if isCurl && (name == "--remote-name" || name == "--remote-name-all") { usesRemoteNames = true }
            } else if text.hasPrefix("-") && text.count > 1 {
                // A cluster of short options: the first that takes a value takes the rest of
                // the word, or the next word when nothing is left.
                var letters = text.dropFirst()
                while let letter = letters.popFirst() {
                    if isCurl && letter == "O" { usesRemoteNames = true }
                    guard valued.contains(letter) else { continue }
                    let value = letters.isEmpty ? arguments.popFirst()?.text : String(letters)
                    if let value, letter == (isCurl ? "o" : "O") { outputs.append(value) }
                    if let value, !isCurl && letter == "P" { folder = value }
                    break
                }
            } else if text.contains("://") {
                urls.append(text)
            }
        }
        var files = outputs.filter { $0 != "-" }
        // wget names its one output file with -O; curl writes -o files and -O names side by side.
        guard usesRemoteNames && (isCurl || outputs.isEmpty) else { return files }
        // A URL with a query is left out: curl and wget name such a file differently.
        for url in urls where !url.contains("?") && !url.contains("#") {
            guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].lastIndex(of: "/"),
                url.index(after: slash) < url.endIndex
            else { continue }
            let remoteName = String(url[url.index(after: slash)...])
            files.append(remoteName)
            if let folder { files.append(folder.hasSuffix("/") ? folder + remoteName : folder + "/" + remoteName) }
        }
        return files
    }
}
