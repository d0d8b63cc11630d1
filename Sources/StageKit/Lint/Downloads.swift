/// Downloads by curl and wget in a `RUN`, and what counts as checking one, for the rules on
/// downloads (SB009, SB010, SB028).
///
/// A *check* is a checksum list check (`sha256sum -c`, another `*sum -c`/`--check`, `shasum
/// -c`, `cksum --check`), a `*sum` output compared in a test (`[ "$(sha256sum f | cut -d' '
/// -f1)" = "$SHA" ]`) or searched by `grep` (`sha256sum f | grep -q "$SHA"`), or a signature or
/// provenance check (`gpg --verify`, `gpgv`, `minisign -V`, `signify -V`, `cosign verify-blob`,
/// `slsa-verifier verify-artifact`, `gh attestation verify`, `openssl dgst -verify`). A check
/// whose failure is thrown away (`|| true`, `|| echo …`) is none. A check covers the files it
/// names, or every file when it reads a list the rule cannot see (`sha256sum -c SHA256SUMS`).
enum Downloads {
    /// The programs that download.
    static let downloaders: Set<String> = ["curl", "wget"]

    /// The short options of curl and wget that take a value (the rest of the cluster, or the next word).
    private static let valuedLetters: [String: Set<Character>] = [
        "curl": Set("AbcCdDeEFHKmoPQrtTuUwxXyYz"),
        "wget": Set("aABDeiIlOoPQRtTUwX"),
    ]

    /// Whether a command checks downloads.
    ///
    /// - Parameters:
    ///   - command: A shell command.
    ///   - pipedFrom: The command whose output it reads, if any.
    ///   - next: The command after it, to see whether `||` throws its failure away.
    static func isCheck(_ command: ShellScript.Command, pipedFrom: ShellScript.Command?, next: ShellScript.Command?) -> Bool {
        guard let program = command.program else { return false }
        if command.separator == .or, let handler = next?.program, ["true", ":", "echo", "printf"].contains(handler) {
            return false
        }
        let arguments = command.arguments.map(\.text)
        if isSignatureCheck(program, arguments) || isListCheck(command) { return true }
        if program == "grep", let source = pipedFrom?.program, isDigestProgram(source) { return true }
        guard ["[", "[[", "test"].contains(program) else { return false }
        return arguments.contains { ["=", "==", "!="].contains($0) }
            && command.substitutions.flatMap(\.inRunOrder).contains { $0.program.map(isDigestProgram) ?? false }
    }

    /// Whether a check covers a file: it names the file (a word of the check, or of the command
    /// piped into it, such as the `echo "<sha256>  FILE"` of `| sha256sum -c -`, is the file's
    /// path or holds its name), or it reads a list file whose lines the rule cannot see.
    ///
    /// - Parameters:
    ///   - check: A command `isCheck` accepts.
    ///   - pipedFrom: The command whose output the check reads, if any.
    ///   - file: The file as the download wrote it.
    static func covers(_ check: ShellScript.Command, pipedFrom: ShellScript.Command?, file: String) -> Bool {
        if isListCheck(check) {
            let lists = check.arguments.filter { !$0.text.hasPrefix("-") }.map(\.text)
            if !lists.isEmpty && !lists.contains("/dev/null") { return true }
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let words = check.words + (pipedFrom?.words ?? [])
        // A `*` before a name in a checksum line is the binary-mode mark (`<sha256> *FILE`).
        return words.contains { word in
            word.text == file
                || word.text.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" || $0 == "*" }).contains { $0 == name }
        }
    }

    /// Whether every URL a download names holds a commit or digest as a path segment (40 or 64
    /// hex digits, build arguments and `ENV` values expanded): what it fetches cannot change.
    ///
    /// - Parameters:
    ///   - command: A curl or wget command.
    ///   - expand: Expands the variable references of a word; `nil` when a value is unknown.
    static func fetchesOnlyFixedContent(_ command: ShellScript.Command, expand: (String) -> String?) -> Bool {
        let urls = command.arguments.map(\.text).filter { $0.contains("://") }
        return !urls.isEmpty
            && urls.allSatisfy { url in
                let path = (expand(url) ?? url).prefix { $0 != "?" && $0 != "#" }
                return path.split(separator: "/").contains { ($0.count == 40 || $0.count == 64) && $0.allSatisfy(\.isHexDigit) }
            }
    }

    /// The files a curl or wget command writes: its `-o`/`-O FILE` values, else (`curl -O`,
    /// `wget URL`) each URL's last path component, also under the output folder when one is given.
    ///
    /// - Parameters:
    ///   - command: A shell command.
    ///   - program: `curl` or `wget`.
    static func writtenFiles(_ command: ShellScript.Command, program: String) -> [String] {
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
        // `curl URL > FILE` writes standard output to a file.
        var files = outputs.filter { $0 != "-" }
        if isCurl && outputs.isEmpty && !usesRemoteNames { files += command.outputTargets }
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

    /// Whether a command checks the sums a list gives (`sha256sum -c SUMS`).
    private static func isListCheck(_ command: ShellScript.Command) -> Bool {
        guard let program = command.program, isDigestProgram(program) else { return false }
        return command.arguments.contains { word in
            word.text == "--check" || (word.text.hasPrefix("-") && !word.text.hasPrefix("--") && word.text.contains("c"))
        }
    }

    /// Programs that verify a signature or provenance, with the words that make them verify.
    private static func isSignatureCheck(_ program: String, _ arguments: [String]) -> Bool {
        switch program {
        case "gpgv": return true
        case "gpg", "gpg2": return arguments.contains("--verify")
        case "minisign", "signify":
            return arguments.contains { $0 == "--verify" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("V")) }
        case "cosign": return arguments.first.map { $0.hasPrefix("verify") } ?? false
        case "slsa-verifier": return arguments.first.map { $0.hasPrefix("verify-") } ?? false
        case "gh": return arguments.starts(with: ["attestation", "verify"])
        case "openssl": return arguments.first == "dgst" && arguments.contains { $0 == "-verify" || $0 == "-prverify" }
        default: return false
        }
    }

    /// `sha256sum`, `b2sum`, `shasum`, `cksum` and the other `*sum` programs.
    private static func isDigestProgram(_ program: String) -> Bool { program.hasSuffix("sum") }
}
