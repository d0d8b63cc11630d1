/// What counts as checking a downloaded file, for the rules on downloads (SB010, SB028): a
/// checksum list check (`sha256sum -c`, another `*sum -c`/`--check`, `shasum -c`, `cksum
/// --check`), a comparison of a `*sum` output in a test (`[ "$(sha256sum f | cut -d' ' -f1)" =
/// "$SHA" ]`), or a signature or provenance check (`gpg --verify`, `gpgv`, `minisign -V`,
/// `signify -V`, `cosign verify-blob`, `slsa-verifier verify-artifact`, `gh attestation
/// verify`, `openssl dgst -verify`).
enum DownloadCheck {
    /// Whether a command checks downloaded files.
    ///
    /// - Parameter command: A shell command.
    static func isCheck(_ command: ShellScript.Command) -> Bool {
        guard let program = command.program else { return false }
        let arguments = command.arguments.map(\.text)
        if isSignatureCheck(program, arguments) || isListCheck(command) { return true }
        guard ["[", "[[", "test"].contains(program) else { return false }
        return arguments.contains { ["=", "==", "!="].contains($0) }
            && command.substitutions.flatMap(\.inRunOrder).contains { $0.program.map(isDigestProgram) ?? false }
    }

    /// Whether a command checks the sums a list gives (`sha256sum -c SUMS`): the files it
    /// checks are named in the list, not on the command line.
    ///
    /// - Parameter command: A shell command.
    static func isListCheck(_ command: ShellScript.Command) -> Bool {
        guard let program = command.program, isDigestProgram(program) else { return false }
        return command.arguments.contains { word in
            word.text == "--check" || (word.text.hasPrefix("-") && !word.text.hasPrefix("--") && word.text.contains("c"))
        }
    }

    /// Whether a check names a file: a word of the check, or of the command piped into it (the
    /// `echo "<sha256>  FILE"` of `| sha256sum -c -`), is the file's path or holds its name.
    ///
    /// - Parameters:
    ///   - check: The checking command.
    ///   - pipedFrom: The command whose output the check reads, if any.
    ///   - file: The file as the download wrote it.
    static func names(_ check: ShellScript.Command, or pipedFrom: ShellScript.Command?, file: String) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let words = check.words + (pipedFrom?.words ?? [])
        return words.contains { word in
            word.text == file || word.text.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" }).contains { $0 == name }
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
