import Testing

@testable import StageKit

/// SB014's reading of names beside BuildKit's `SecretsUsedInArgOrEnv`, its base: every name
/// gets BuildKit's verdict unless it is a documented difference, and every documented
/// difference still differs (so the list in the rule's documentation cannot drift).
@Suite struct SecretNameReferenceTests {
    /// BuildKit's rule as its documentation and linter state it: one of the `_`-separated words,
    /// in any case, is a secret token, and none is `public`.
    static func buildKitFlags(_ name: String) -> Bool {
        let tokens: Set<String> = [
            "apikey", "auth", "credential", "credentials", "key", "password", "pword", "passwd", "secret", "token",
        ]
        let words = name.lowercased().split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        return words.contains(where: tokens.contains) && !words.contains("public")
    }

    /// Names both rules read alike: BuildKit's documented examples, the official images'
    /// common build arguments, and the names users reported.
    static let agreeing = [
        "api_key", "DATABASE_PASSWORD", "GITHUB_TOKEN", "secret_MESSAGE", "AUTH", "NPM_TOKEN", "DB_PASSWORD",
        "AWS_SECRET_ACCESS_KEY", "GITHUB_API_KEY", "SSH_PRIVATE_KEY", "REGISTRY_CREDENTIALS", "SECRET_KEY_BASE",
        "DB_PASSWORD_PROD", "NPM_CONFIG__AUTH", "CLIENT_SECRET", "TOKEN", "APIKEY", "PUBLIC_KEY", "NEXT_PUBLIC_API_KEY",
        "JWT_SECRET_PUBLIC", "MAX_TOKENS", "TOKENS", "TOKENIZERS_PARALLELISM", "BYPASS_CACHE", "PASS_MAX_DAYS",
        "NODE_ENV", "PYTHON_VERSION", "GOSU_VERSION", "SECRETS_DIR", "KEYS", "MONKEY", "TOKENIZER",
    ]

    /// Names this rule reads otherwise, each with the documented reason.
    static let differences: [(name: String, reason: String)] = [
        ("apiToken", "camelCase words"), ("openAiApiKey", "camelCase words"), ("StripeAPIKey", "camelCase words"),
        ("db-password", "words split at - and ."), ("app.secret", "words split at - and ."),
        ("DB_PASSPHRASE", "more spellings"), ("SSH_PRIVATEKEY", "more spellings"), ("DB_PASS", "a last pass"),
        ("GH_TOKEN2", "a trailing number"),
        ("DB_PASSWORD_FILE", "a qualifier names where it is kept"), ("PRIVATE_KEY_PATH", "a qualifier"),
        ("AUTH_URL", "a qualifier"), ("SIGNING_KEY_ID", "a qualifier"), ("aws_access_key_id", "a qualifier"),
        ("TOKEN_URL", "a qualifier"), ("API_KEY_HEADER", "a qualifier"), ("PASSWORD_MIN_LENGTH", "a qualifier"),
        ("TOKEN_LIMIT", "a qualifier"), ("TOKEN_TTL_SECONDS", "a qualifier"), ("VAULT_SECRET_PATH", "a qualifier"),
        ("GPG_KEY", "a key no word calls secret"), ("CACHE_KEY", "a key no word calls secret"),
        ("KEY", "a key no word calls secret"), ("AUTH_ENABLED", "auth before other words"),
    ]

    @Test(arguments: agreeing)
    func agreesWithBuildKit(_ name: String) {
        #expect(SB014SecretInArgOrEnv.looksSecret(name) == Self.buildKitFlags(name), "\(name)")
    }

    @Test(arguments: differences.map(\.name))
    func eachDocumentedDifferenceStillDiffers(_ name: String) {
        #expect(SB014SecretInArgOrEnv.looksSecret(name) != Self.buildKitFlags(name), "\(name)")
    }

    @Test func theReportedNamesAreDecidedAsDocumented() {
        // The names of the report: BuildKit flags the first five, which are documented differences.
        for name in ["GPG_KEY", "SIGNING_KEY_ID", "PRIVATE_KEY_PATH", "AUTH_URL", "aws_access_key_id"] {
            #expect(Self.buildKitFlags(name))
            #expect(Self.differences.contains { $0.name == name })
        }
        // and neither flags a name with the word public.
        #expect(!SB014SecretInArgOrEnv.looksSecret("JWT_SECRET_PUBLIC") && !Self.buildKitFlags("JWT_SECRET_PUBLIC"))
    }
}
