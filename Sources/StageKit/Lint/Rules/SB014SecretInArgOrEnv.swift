import DockerfileSyntax

/// SB014: an `ARG` or `ENV` has a name that looks like it holds a secret. `ENV` values are
/// stored in the image and build arguments in its history, where anyone who pulls it can read
/// them. A warning, as BuildKit's `SecretsUsedInArgOrEnv` check is: a name is only a hint.
/// The value is never printed.
///
/// How a name is read:
/// - It is split into words at `_`, `-` and `.`, and at camelCase humps (`apiKey`,
///   `APIKey` and `API_KEY` all give `api`, `key`); words are compared in lower case with
///   trailing digits dropped (`TOKEN2` reads as `token`).
/// - A *secret term* is one word of `password`, `passwd`, `pword`, `passphrase`, `secret`,
///   `token`, `credential`, `credentials`, `apikey`, `privatekey`, `accesskey`, `secretkey`;
///   or `key` right after one of `api`, `private`, `access`, `secret`, `signing`,
///   `encryption`, `master`, `ssh`, `deploy`, `license`, `session`, `client`, `auth`
///   (`PRIVATE_KEY`, `AWS_SECRET_ACCESS_KEY`); or `pass` or `auth` as the name's last word
///   (`DB_PASS`, `NPM_AUTH`), as they also begin many setting names (`PASS_MAX_DAYS`,
///   `AUTH_ENABLED`).
/// - Plural words (`TOKENS`, `SECRETS`, `PASSWORDS`, `KEYS`) name counts or collections,
///   not one secret, and are no secret terms (`MAX_TOKENS`).
/// - A name is a secret when it has a secret term and no *qualifier* follows the last one: a
///   word that makes the name a setting about the secret, or a reference to where it is
///   kept, rather than the secret itself. Qualifiers: limits and sizes (`limit`, `min`, `max`,
///   `length`, `len`, `size`, `count`, `bits`), times (`ttl`, `timeout`, `interval`,
///   `expiry`, `expiration`, `expires`, `lifetime`, `age`, `seconds`, `secs`, `ms`,
///   `minutes`, `hours`, `days`), places and references (`file`, `path`, `dir`,
///   `directory`, `url`, `uri`, `endpoint`, `host`, `port`, `header`, `name`, `id`, `arn`,
///   `ref`, `env`, `location`), and kinds and switches (`type`, `kind`, `mode`, `method`,
///   `format`, `algorithm`, `version`, `provider`, `policy`, `scope`, `prefix`, `pattern`,
///   `enabled`, `disabled`, `required`). So `TOKEN_URL`, `TOKEN_TTL_SECONDS`,
///   `API_KEY_HEADER`, `PASSWORD_MIN_LENGTH` and `DB_PASSWORD_FILE` pass, while
///   `SECRET_KEY_BASE` and `DB_PASSWORD_PROD` are secrets.
/// - A name with the word `public` anywhere passes (`NEXT_PUBLIC_API_KEY`, `JWT_SECRET_PUBLIC`).
///
/// BuildKit's `SecretsUsedInArgOrEnv` is the base: a name is a secret there when one of its
/// `_`-separated words, in any case, is `apikey`, `auth`, `credential`, `credentials`, `key`,
/// `password`, `pword`, `passwd`, `secret` or `token`, and none is `public`. Where this rule
/// differs, it is on purpose (`SecretNameReferenceTests` keeps each difference true):
/// - *Also secrets here:* camelCase names and names split at `-` or `.` (`apiToken`,
///   `db-password`: BuildKit only splits at `_`); `passphrase`, `privatekey`, `accesskey`,
///   `secretkey` and a last `pass`; a trailing number (`GH_TOKEN2`).
/// - *Not secrets here:* a name whose last secret term is followed by a qualifier, as it names
///   where a secret is kept or a setting about it (`DB_PASSWORD_FILE`, the Docker secrets
///   convention of the official images; `PRIVATE_KEY_PATH`, `AUTH_URL`, `SIGNING_KEY_ID`,
///   `AWS_ACCESS_KEY_ID`, which AWS treats as an identifier, not a secret); a `key` that no
///   word before it calls private, secret, API or the like (`GPG_KEY`, the public-key
///   fingerprint of every docker-library image; `CACHE_KEY`); `auth` before other words
///   (`AUTH_ENABLED`, a setting).
///
/// Source: BuildKit build check `SecretsUsedInArgOrEnv` (a warning;
/// `frontend/dockerfile/linter`); Dockerfile reference, "RUN --mount=type=secret". hadolint
/// has no equivalent.
struct SB014SecretInArgOrEnv: LintRule {
    let id = "SB014"
    let name = "secret-in-arg-or-env"
    let severity = LintSeverity.warning
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
        "ENV SECRET_KEY_BASE=x\n",
        "ARG DB_PASS\n",
        "ENV NPM_CONFIG__AUTH=x\n",
        "ARG GH_TOKEN2\n",
        "ENV openAiApiKey=x StripeAPIKey=y\n",
        "ARG DB_PASSWORD_PROD\n",
        "ONBUILD ENV DB_PASSWORD=x\n",
    ]
    let nonTriggeringExamples = [
        "ENV DB_PASSWORD_FILE=/run/secrets/db_password\n",
        "ARG GPG_KEY=7169605F62C751356D054A26A821E680E5FA6305\n",
        "ENV PUBLIC_KEY_PATH=/etc/app/key.pub\n",
        "ENV TOKENIZERS_PARALLELISM=false\n",
        "ARG NODE_ENV=production\n",
        "RUN --mount=type=secret,id=npm_token NPM_TOKEN=\"$(cat /run/secrets/npm_token)\" npm ci\n",
        "ENV MAX_TOKENS=x\n",
        "ENV TOKENS=4096\n",
        "ENV TOKEN_LIMIT=100 TOKEN_TTL_SECONDS=3600\n",
        "ENV API_KEY_HEADER=X-Api-Key\n",
        "ENV TOKEN_URL=https://auth.example.com/token\n",
        "ENV PASSWORD_MIN_LENGTH=12\n",
        "ARG maxTokens=512 tokenLimit=10\n",
        "ENV AWS_ACCESS_KEY_ID=AKIAEXAMPLE\n",
        "ENV AUTH_ENABLED=true PASS_MAX_DAYS=90\n",
        "ENV NEXT_PUBLIC_API_KEY=pk_live_x\n",
        "ENV PASSWORD_RESET_URL=https://example.com/reset\n",
    ]

    /// Words that are a secret term wherever they stand.
    private static let secretWords: Set<String> = [
        "password", "passwd", "pword", "passphrase", "secret", "token", "credential", "credentials", "apikey",
        "privatekey", "accesskey", "secretkey",
    ]
    /// Words that make a following `key` a secret term.
    private static let keyQualifiers: Set<String> = [
        "api", "private", "access", "secret", "signing", "encryption", "master", "ssh", "deploy", "license", "session",
        "client", "auth",
    ]
    /// Words that are a secret term only as the name's last word.
    private static let finalSecretWords: Set<String> = ["pass", "auth"]
    /// Words that, after the last secret term, make the name a setting or a reference.
    private static let qualifiers: Set<String> = [
        "limit", "min", "max", "length", "len", "size", "count", "bits", "ttl", "timeout", "interval", "expiry",
        "expiration", "expires", "lifetime", "age", "seconds", "secs", "ms", "minutes", "hours", "days", "file", "path",
        "dir", "directory", "url", "uri", "endpoint", "host", "port", "header", "name", "id", "arn", "ref", "env",
        "location", "type", "kind", "mode", "method", "format", "algorithm", "version", "provider", "policy", "scope",
        "prefix", "pattern", "enabled", "disabled", "required",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for entry in document.entries {
            // An ONBUILD trigger declares its names in every image built from this one.
            let instruction = entry.keyword == .onbuild ? entry.instruction.onbuildTrigger : entry.instruction
            guard let instruction, instruction.knownKeyword == .arg || instruction.knownKeyword == .env else { continue }
            let kind = entry.keyword == .onbuild ? "ONBUILD \(instruction.kind)" : instruction.kind
            let names = instruction.asArg?.declarations.map(\.name) ?? instruction.asKeyValue?.pairs.map(\.key) ?? []
            for name in names where Self.looksSecret(name.text) {
                let storage =
                    instruction.knownKeyword == .arg
                    ? "build arguments are kept in the image history" : "ENV values are stored in the image"
                findings.append(
                    finding("\(kind) \(name.text) looks like a secret; \(storage)", at: instruction.location(of: name)))
            }
        }
        return findings
    }

    /// Whether a variable name reads as a secret; the rule's documentation gives the reading.
    ///
    /// - Parameter name: The `ARG` or `ENV` name.
    static func looksSecret(_ name: String) -> Bool {
        let words = Self.words(of: name).map { word in
            let trimmed = String(word.reversed().drop(while: \.isNumber).reversed())
            return trimmed.isEmpty ? word : trimmed
        }
        var lastSecret: Int?
        for (index, word) in words.enumerated() {
            let previous = index > 0 ? words[index - 1] : nil
            if secretWords.contains(word) || (word == "key" && previous.map(keyQualifiers.contains) == true)
                || (finalSecretWords.contains(word) && index == words.count - 1)
            {
                lastSecret = index
            }
        }
        guard let lastSecret else { return false }
        if words.contains("public") { return false }
        return !words[(lastSecret + 1)...].contains(where: qualifiers.contains)
    }

    /// A name's words, lower-cased: split at `_`, `-` and `.`, and where a lower-case letter or
    /// digit meets an upper-case one (`apiKey`) or an upper-case run meets a capitalised word
    /// (`APIKey` gives `api`, `key`).
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" || character == "." {
                if !current.isEmpty { words.append(String(current).lowercased()) }
                current = []
                continue
            }
            if character.isUppercase, let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let hump = previous.isLowercase || previous.isNumber
                let acronymEnd = previous.isUppercase && next?.isLowercase == true
                if hump || acronymEnd {
                    words.append(String(current).lowercased())
                    current = []
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(String(current).lowercased()) }
        return words
    }
}
