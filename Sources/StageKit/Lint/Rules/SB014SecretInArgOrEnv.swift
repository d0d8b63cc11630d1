import DockerfileSyntax

/// SB014: an `ARG` or `ENV` has a name that looks like a secret (PASSWORD, SECRET, TOKEN,
/// API_KEY, PRIVATE_KEY, ACCESS_KEY, CREDENTIALS, …). `ENV` values are stored in the image
/// and build arguments in its history, where anyone who pulls it can read them. Names that
/// hold a reference rather than the secret (`…_FILE`, `…_PATH`, `…_URL`, `…_ID`, …) and
/// `PUBLIC` keys pass. The value is never printed.
///
/// Source: BuildKit build check `SecretsUsedInArgOrEnv`; Dockerfile reference, "RUN
/// --mount=type=secret". hadolint has no equivalent.
struct SB014SecretInArgOrEnv: LintRule {
    let id = "SB014"
    let name = "secret-in-arg-or-env"
    let severity = LintSeverity.error
    let summary = "An ARG or ENV name looks like a secret (PASSWORD, SECRET, TOKEN, API_KEY, …)."
    let hint = "pass the secret with RUN --mount=type=secret,id=NAME and read it from /run/secrets/NAME; never as ARG or ENV"
    let triggeringExamples = [
        "ARG NPM_TOKEN\n",
        "ENV DB_PASSWORD=changeme\n",
        "ENV AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI\n",
        "ARG GITHUB_API_KEY=\n",
        "ENV LOG_LEVEL=info apiToken=abc\n",
        "ARG SSH_PRIVATE_KEY\n",
        "ENV REGISTRY_CREDENTIALS=user:pass\n",
    ]
    let nonTriggeringExamples = [
        "ENV DB_PASSWORD_FILE=/run/secrets/db_password\n",
        "ARG GPG_KEY=7169605F62C751356D054A26A821E680E5FA6305\n",
        "ENV PUBLIC_KEY_PATH=/etc/app/key.pub\n",
        "ENV TOKENIZERS_PARALLELISM=false\n",
        "ARG NODE_ENV=production\n",
        "RUN --mount=type=secret,id=npm_token NPM_TOKEN=\"$(cat /run/secrets/npm_token)\" npm ci\n",
    ]

    private static let secretWords: Set<String> = [
        "password", "passwd", "pword", "pass", "passphrase", "secret", "secrets", "token", "tokens", "credential",
        "credentials", "apikey", "privatekey", "accesskey", "secretkey",
    ]
    private static let keyQualifiers: Set<String> = ["api", "private", "access", "signing", "encryption", "master", "ssh"]
    private static let referenceSuffixes: Set<String> = [
        "file", "path", "dir", "directory", "url", "uri", "endpoint", "name", "id", "type", "length", "size", "mode",
        "method", "env", "host", "port",
    ]

    func check(_ document: LintDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for entry in document.entries where ["ARG", "ENV"].contains(entry.instruction.kind) {
            let kind = entry.instruction.kind
            let names: [String] =
                kind == "ARG"
                ? entry.instruction.arguments.map { String($0.prefix { $0 != "=" }) }
                : stride(from: 0, to: entry.instruction.arguments.count, by: 2).map { entry.instruction.arguments[$0] }
            var searchFrom = entry.instruction.keyword.unicodeScalars.count
            for name in names {
                let offset = entry.offset(of: name, from: searchFrom)
                if let offset { searchFrom = offset + name.unicodeScalars.count }
                guard Self.looksSecret(name) else { continue }
                let location = offset.map(entry.map.location(ofLogicalOffset:)) ?? entry.start
                let storage =
                    kind == "ARG" ? "build arguments are kept in the image history" : "ENV values are stored in the image"
                findings.append(finding("\(kind) \(name) looks like a secret; \(storage)", at: location))
            }
        }
        return findings
    }

    /// Whether a variable name reads as a secret: one of its words (split at `_`, `-`, `.`
    /// and lower-to-upper case changes) is a secret word, or `KEY` follows a qualifier such
    /// as `API` or `PRIVATE`.
    static func looksSecret(_ name: String) -> Bool {
        let words = Self.words(of: name)
        guard let last = words.last, !words.contains("public"), !referenceSuffixes.contains(last) else { return false }
        if words.contains(where: secretWords.contains) { return true }
        return zip(words, words.dropFirst()).contains { keyQualifiers.contains($0) && $1 == "key" }
    }

    private static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        for character in name {
            if character == "_" || character == "-" || character == "." {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase && previousIsLower {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousIsLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }
}
