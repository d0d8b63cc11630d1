import DockerfileSyntax
import Testing

@testable import StageKit

/// The faults a user found in `stagebuild lint`, each kept as the kind of input that showed it,
/// with the result it must give.
@Suite struct LintReportedFaultTests {
    /// The findings of one rule, as `line:column message`.
    private func findings(_ text: String, rule id: String) throws -> [String] {
        let rule = try #require(Linter.allRules.first { $0.id == id })
        return try Linter(rules: [rule]).lint(text: text).map { "\($0.line):\($0.column) \($0.message)" }
    }

    // MARK: SB014 reads names by their words

    @Test(arguments: [
        // The user's false alarms: counts, limits and settings about a token or key.
        ("MAX_TOKENS", false), ("TOKENS", false), ("TOKEN_LIMIT", false), ("TOKEN_TTL_SECONDS", false),
        ("API_KEY_HEADER", false),
        // Passed before, and still do, now for the stated reason.
        ("TOKEN_URL", false), ("PASSWORD_MIN_LENGTH", false),
        // camelCase humps split as `_` does.
        ("maxTokens", false), ("tokenLimit", false), ("apiKeyHeader", false), ("APIKeyHeader", false),
        // References to where a secret is kept, and public keys.
        ("DB_PASSWORD_FILE", false), ("AWS_ACCESS_KEY_ID", false), ("VAULT_SECRET_PATH", false),
        ("PUBLIC_KEY", false), ("NEXT_PUBLIC_API_KEY", false), ("GPG_KEY", false),
        // Words that only contain a secret word, and setting prefixes.
        ("TOKENIZERS_PARALLELISM", false), ("BYPASS_CACHE", false), ("PASS_MAX_DAYS", false), ("AUTH_ENABLED", false),
        ("PASSWORD_RESET_URL", false), ("SECRETS_DIR", false),
        // Secrets.
        ("NPM_TOKEN", true), ("DB_PASSWORD", true), ("AWS_SECRET_ACCESS_KEY", true), ("GITHUB_API_KEY", true),
        ("apiToken", true), ("openAiApiKey", true), ("StripeAPIKey", true), ("SSH_PRIVATE_KEY", true),
        ("REGISTRY_CREDENTIALS", true), ("SECRET_KEY_BASE", true), ("DB_PASSWORD_PROD", true), ("GH_TOKEN2", true),
        ("DB_PASS", true), ("NPM_CONFIG__AUTH", true), ("CLIENT_SECRET", true), ("TOKEN", true), ("APIKEY", true),
    ])
    func secretNamesAreReadByTheirWords(_ name: String, _ isSecret: Bool) {
        #expect(SB014SecretInArgOrEnv.looksSecret(name) == isSecret, "\(name)")
    }

    @Test func nameWordsSplitAtSeparatorsAndCamelCaseHumps() {
        #expect(SB014SecretInArgOrEnv.words(of: "APIKeyHeader") == ["api", "key", "header"])
        #expect(SB014SecretInArgOrEnv.words(of: "openAiApiKey") == ["open", "ai", "api", "key"])
        #expect(SB014SecretInArgOrEnv.words(of: "db-password.file") == ["db", "password", "file"])
        #expect(SB014SecretInArgOrEnv.words(of: "OAUTH2_TOKEN") == ["oauth2", "token"])
    }

    @Test func secretNamesAreWarningsNotErrors() throws {
        let findings = try Linter().lint(text: "ENV MAX_TOKENS=x TOKEN_LIMIT=1 API_KEY_HEADER=h\nARG NPM_TOKEN\n")
        #expect(findings.map(\.ruleID) == ["SB014"])
        #expect(findings.map(\.severity) == [.warning])
        #expect(findings.first?.message == "ARG NPM_TOKEN looks like a secret; build arguments are kept in the image history")
    }

    // MARK: Checks SB028 and SB010 know, and the kinds of input they missed

    @Test func everyKindOfVerificationCountsAsACheck() throws {
        let download = "RUN curl -fsSLo k.tgz https://example.com/k.tgz && "
        let checks = [
            #"echo "$K_SHA  k.tgz" | shasum -a 256 -c"#, "gpgv --keyring ./k.gpg k.tgz.sig k.tgz", "minisign -Vm k.tgz -P RWQ",
            "cosign verify-blob --certificate-identity x --signature k.sig k.tgz", "b2sum -c k.b2",
            "slsa-verifier verify-artifact k.tgz --provenance-path k.intoto.jsonl --source-uri github.com/x/k",
            #"[ "$(sha256sum k.tgz | cut -d' ' -f1)" = "$K_SHA" ]"#, #"echo "$K_SHA k.tgz" | sha256sum --check --status"#,
            "gh attestation verify k.tgz --owner x",
        ]
        for check in checks {
            #expect(try findings(download + check + " && tar xzf k.tgz\n", rule: "SB028") == [], "\(check)")
        }
        #expect(try findings(download + "echo checked && tar xzf k.tgz\n", rule: "SB028").count == 1)
    }

    @Test func aDownloadVerifiedInALaterRunOfItsStageIsChecked() throws {
        let text = """
            FROM golang:1.22-alpine AS build
            RUN curl -s https://example.com/minio -o /go/bin/minio && chmod +x /go/bin/minio
            RUN curl -s https://example.com/mc -o /go/bin/mc && chmod +x /go/bin/mc
            RUN minisign -Vqm /go/bin/minio -x /go/bin/minio.minisig -P RWQ
            FROM alpine:3.20
            RUN minisign -Vqm /go/bin/mc -x /go/bin/mc.minisig -P RWQ

            """
        #expect(
            try findings(text, rule: "SB028") == [
                "3:62 chmod makes executable /go/bin/mc, downloaded by curl, without a checksum check"
            ])
    }

    @Test func quotedAndVariableURLsInAddAreDownloads() throws {
        let text = """
            ARG BASE=https://example.com
            FROM alpine:3.20
            ARG BASE
            ADD "https://example.com/b.tar.gz" /b1
            ADD --chmod=755 'https://example.com/c' "/usr/bin/c"
            ADD ${BASE}/d.tar.gz /d
            ADD --checksum=sha256:7c9bbe5ec9b3fb774e8fa0f54247e93c34ddf8e5d16fe3073420de0ae81a262d "https://example.com/e" /e
            ADD "vendor/f.tar.gz" /f

            """
        #expect(try findings(text, rule: "SB010").map { $0.prefix(4) } == ["4:5 ", "5:17", "6:5 "])
    }

    @Test func aPipeInACaseItemsPatternsIsNoPipe() throws {
        let text =
            "FROM debian:bookworm-slim\nRUN case \"$(dpkg --print-architecture)\" in amd64 | arm64) echo ok ;; *) exit 1 ;; esac\n"
        #expect(try findings(text, rule: "SB027") == [])
    }

    // MARK: SB001 and SB002 see through global arguments

    @Test func fromWithAGlobalArgumentIsChecked() throws {
        let text = "ARG IMG=node\nFROM ${IMG}\n"
        #expect(try findings(text, rule: "SB001") == ["2:6 image node is not pinned by digest"])
        #expect(try findings(text, rule: "SB002") == ["2:6 image node has no tag"])
    }

    @Test func globalArgumentsExpandEarlierOnesAndQuotesAreRemoved() throws {
        let text = """
            ARG REGISTRY=docker.io
            ARG IMG="${REGISTRY}/library/node"
            FROM "${IMG}" AS build
            FROM $IMG:20
            """
        #expect(
            try findings(text, rule: "SB002") == ["3:6 image docker.io/library/node has no tag"])
        #expect(
            try findings(text, rule: "SB001") == [
                "3:6 image docker.io/library/node is not pinned by digest",
                "4:6 image docker.io/library/node:20 is not pinned by digest",
            ])
    }

    @Test func argumentsOfABuildStageDoNotReachALaterFrom() throws {
        // BuildKit: only ARGs before the first FROM may be used in FROM lines.
        let text = "FROM debian:12@sha256:\(String(repeating: "ab", count: 32))\nARG IMG=node\nFROM ${IMG}\n"
        #expect(try findings(text, rule: "SB002").isEmpty)
    }

    @Test func argumentWithAnUnknownReferenceIsNotGuessed() throws {
        let text = "ARG VERSION\nARG IMG=node:${VERSION}\nFROM ${IMG}\n"
        #expect(try findings(text, rule: "SB001").isEmpty)
        let document = DockerfileDocument(try DockerfileParser.parse(text))
        let uses = document.imageUses(includingUnexpanded: true)
        #expect(uses.map(\.written) == ["${IMG}"])
        #expect(uses.map(\.isExpanded) == [false])
    }

    // MARK: SB011 reads git clone's options

    @Test func gitCloneOptionValuesAreNotTheRepository() throws {
        let text = "RUN git clone --depth 1 --branch v1.0 https://github.com/example/tool.git /src/tool\n"
        #expect(
            try findings(text, rule: "SB011") == [
                "1:9 git clone of https://github.com/example/tool.git --branch v1.0 names a branch or tag, not a fixed commit"
            ])
        let short = "RUN git clone -j4 -c http.sslVerify=true -o up -- https://github.com/example/tool.git\n"
        #expect(
            try findings(short, rule: "SB011") == [
                "1:9 git clone of https://github.com/example/tool.git is not followed by a checkout of a fixed commit"
            ])
    }

    @Test func gitCloneReadsEveryValuedOption() throws {
        let text = "RUN git clone -b main\n"
        let document = DockerfileDocument(try DockerfileParser.parse(text))
        let command = try #require(document.runScripts.first?.commands.first)
        let clone = try #require(SB011GitCloneWithoutCommit.clone(command))
        #expect(clone.values == ["--branch": "main"])
        #expect(clone.repository == nil)
        let long = DockerfileDocument(
            try DockerfileParser.parse(
                "RUN git clone --reference /cache --separate-git-dir /g --filter=blob:none --template /t "
                    + "--shallow-since 2024-01-01 --shallow-exclude v1 --origin up --jobs 2 --config a=b R D\n"))
        let read = try #require(long.runScripts.first?.commands.first.flatMap(SB011GitCloneWithoutCommit.clone))
        #expect(read.operands.map(\.text) == ["R", "D"])
        #expect(read.values.count == 9)
    }

    // MARK: SB015 duplicate build-stage names

    @Test func duplicateStageNameIsAnErrorAtTheSecondName() throws {
        let text = "FROM golang:1.22 AS build\nRUN true\nFROM   debian:12   AS   Build\n"
        #expect(try findings(text, rule: "SB015") == ["3:25 build stage name Build is already used by the stage on line 1"])
        #expect(try Linter().lint(text: text).first { $0.ruleID == "SB015" }?.severity == .error)
    }

    // MARK: SB012 in a Stagefile

    @Test func finalUserRootInAStagefileIsReported() throws {
        let stagefile = "FROM stage:debian AS app\nUSE node-service APP_PORT=3000\nUSER root\n"
        #expect(try findings(stagefile, rule: "SB012") == ["3:6 the final build stage switches to USER root, so it runs as root"])
        // A template used after the USER may set its own: not judged.
        #expect(try findings("FROM stage:debian AS app\nUSER root\nUSE node-service\n", rule: "SB012").isEmpty)
        // No USER at all: the templates decide, as before.
        #expect(try findings("FROM stage:debian AS app\nUSE node-service\n", rule: "SB012").isEmpty)
    }

    // MARK: Variables

    @Test func variablesAreScopedToTheirBuildStageAndExpandedWhereDeclared() throws {
        let text = """
            ARG BASE=debian
            FROM ${BASE}:12 AS one
            ENV HOME_DIR=/srv
            ENV LOGS=${HOME_DIR}/logs SAME_LINE=${LOGS}
            RUN true
            FROM one AS two
            ARG BASE
            RUN true
            """
        let document = DockerfileDocument(try DockerfileParser.parse(text))
        // Entries: ARG 0, FROM 1, ENV 2, ENV 3, RUN 4, FROM 5, ARG 6, RUN 7.
        #expect(document.stageOfEntry == [0, 1, 1, 1, 1, 2, 2, 2])
        #expect(document.expand("${LOGS}", before: 4) == "/srv/logs")
        #expect(document.expand("${LOGS}", before: 3) == nil)
        // One ENV line sees the values from before it, as BuildKit's does.
        #expect(document.expand("${SAME_LINE}", before: 4) == nil)
        #expect(document.expand("${LOGS}", before: 7) == nil)
        #expect(document.expand("${BASE}", before: 7) == "debian")
        #expect(document.expand("${MISSING:-x}", before: 7) == "x")
        #expect(document.parentStages == [nil, nil, 1])
    }
}
