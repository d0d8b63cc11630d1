import DockerfileSyntax

/// SB028: an archive or program that curl or wget downloads is used without a checksum check:
/// piped straight into an unpacker (`curl … | tar -xz`, `wget -qO- … | xz -d`), or written to
/// a file (`curl -o FILE`, `curl -O`, `wget URL`, `wget -O FILE`) that a later command of the
/// same `RUN` unpacks (`tar`, `unzip`, `gunzip`, …) or makes executable (`chmod +x`, `chmod
/// 755`) with no check in between: `sha256sum -c` (or another `*sum -c`, `shasum -c`,
/// `cksum --check`), `gpg --verify` or `gpgv`. Whatever the server sends that day goes into
/// the image, and two builds may hold different files.
///
/// Only these clear shapes are judged: a file counts when the later command names it as the
/// downloader wrote it (`-O` and `wget URL` write the URL's last path component, in the
/// `--output-dir` or `-P` folder when one is given), and any check between the two counts.
/// Running a downloaded script is SB009's.
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
        for script in document.runScripts {
            // The files written by downloads since the last check, with the program that wrote each.
            var downloaded: [String: String] = [:]
            // The downloader whose output the current pipeline carries, until one unpacker is reported.
            var piping: String?
            for command in script.commands {
                if Self.isCheck(command) { downloaded.removeAll() }
                if let program = command.program, let word = command.invocation.first {
                    if let source = piping, Self.unpackers.contains(program) {
                        findings.append(
                            finding("\(program) unpacks what \(source) downloads without a checksum check", at: word.location))
                        piping = nil
                    }
                    for file in Self.usedFiles(command) {
                        guard let downloader = downloaded[file.text] else { continue }
                        let verb = program == "chmod" ? "makes executable" : "unpacks"
                        findings.append(
                            finding(
                                "\(program) \(verb) \(file.text), downloaded by \(downloader), without a checksum check",
                                at: file.location))
                    }
                    if Self.downloaders.contains(program) {
                        for file in Self.writtenFiles(command, program: program) { downloaded[file] = program }
                        piping = piping ?? program
                    }
                }
                if command.separator != .pipe { piping = nil }
            }
        }
        return findings
    }

    /// `*sum -c`/`--check`, `shasum -c`, `cksum --check`, `gpg --verify` or `gpgv`.
    private static func isCheck(_ command: ShellScript.Command) -> Bool {
        guard let program = command.program else { return false }
        let arguments = command.arguments.map(\.text)
        if program == "gpgv" { return true }
        if program == "gpg" || program == "gpg2" { return arguments.contains("--verify") }
        guard program.hasSuffix("sum") else { return false }
        return arguments.contains { $0 == "--check" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("c")) }
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
