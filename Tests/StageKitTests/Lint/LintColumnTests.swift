import DockerfileSyntax
import StageKit
import Testing

/// Findings point at the offending word: the right line of a continued instruction or a
/// heredoc body, and the column of the word on it.
@Suite struct LintColumnTests {
    /// The `line:column` of each finding of one rule.
    private func positions(_ text: String, rule id: String) throws -> [String] {
        let rule = try #require(Linter.allRules.first { $0.id == id })
        return try Linter(rules: [rule]).lint(text: text).map { "\($0.line):\($0.column)" }
    }

    @Test func fromPointsAtTheImageAfterFlagsAndIndentation() throws {
        #expect(try positions("  FROM --platform=linux/amd64 debian:bookworm AS base\n", rule: "SB001") == ["1:31"])
    }

    @Test func copyAndMountFromPointAtTheImage() throws {
        let text = """
            FROM scratch
            COPY --link --from=nginx:1.27 /etc/nginx /etc/nginx
            RUN --mount=type=cache,target=/var/cache \\
                --mount=type=bind,from=alpine:3.20,target=/mnt true
            """
        #expect(try positions(text, rule: "SB001") == ["2:20", "4:28"])
    }

    @Test func continuedRunPointsAtThePackageOnItsOwnLine() throws {
        let text = """
            RUN apt-get update \\
                && apt-get install -y --no-install-recommends \\
                    ca-certificates=20230311 \\
                    curl \\
                && rm -rf /var/lib/apt/lists/*
            """
        #expect(try positions(text, rule: "SB003") == ["4:9"])
    }

    @Test func commentLinesInsideAContinuedRunAreCountedAsLines() throws {
        let text = """
            RUN apt-get update \\
            # a comment inside the instruction
            \\
                && apt-get upgrade -y
            """
        #expect(try positions(text, rule: "SB006") == ["4:16"])
    }

    @Test func heredocBodyFindingsPointIntoTheBody() throws {
        let text = """
            FROM debian:bookworm-slim
            RUN <<EOF
            set -eux
            apt-get update
              apt-get install -y --no-install-recommends curl
            EOF
            """
        #expect(try positions(text, rule: "SB003") == ["5:46"])
        #expect(try positions(text, rule: "SB004") == ["4:9"])
    }

    @Test func secondHeredocBodyStartsAfterTheFirstDelimiter() throws {
        let text = """
            RUN <<ONE bash && <<TWO bash
            echo one
            ONE
            echo two
            apt-get -y dist-upgrade
            TWO
            """
        #expect(try positions(text, rule: "SB006") == ["5:12"])
    }

    @Test func envPairsPointAtEachName() throws {
        let text = "ENV LOG_LEVEL=info \\\n    DB_PASSWORD=x API_TOKEN=y\n"
        #expect(try positions(text, rule: "SB014") == ["2:5", "2:19"])
    }

    @Test func backtickEscapeDirectiveContinuesLines() throws {
        let text = "# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nRUN apt-get install `\n    -y git\n"
        #expect(try positions(text, rule: "SB003") == ["4:8"])
    }

    @Test func crlfLineEndingsDoNotShiftColumns() throws {
        let text = "RUN apt-get update \\\r\n  && apt-get install -y curl\r\n"
        #expect(try positions(text, rule: "SB003") == ["2:25"])
    }

    @Test func onbuildRunIsCheckedToo() throws {
        #expect(try positions("ONBUILD RUN npm install\n", rule: "SB008") == ["1:17"])
    }

    @Test func execFormRunPointsAtTheScriptArgument() throws {
        #expect(try positions("RUN [\"/bin/sh\", \"-c\", \"apt-get install -y git\"]\n", rule: "SB003") == ["1:24"])
    }

    @Test func shellFormCommandPointsAtTheCommand() throws {
        #expect(try positions("CMD   node server.js\n", rule: "SB013") == ["1:7"])
    }

    @Test func missingUserPointsAtTheLastCommandOfTheFinalStageElseItsFrom() throws {
        let withCommand =
            "FROM node:20-bookworm-slim AS build\nUSER node\nFROM debian:bookworm-slim\nCMD [\"a\"]\nENTRYPOINT [\"b\"]\nLABEL x=y\n"
        #expect(try positions(withCommand, rule: "SB012") == ["5:1"])
        #expect(try positions("FROM debian:bookworm-slim\nRUN true\n", rule: "SB012") == ["1:1"])
        #expect(try positions("FROM debian:bookworm-slim\nUSER root:root\n", rule: "SB012") == ["2:6"])
    }

    @Test func addPointsAtTheURL() throws {
        #expect(try positions("ADD --chmod=0755 https://example.com/tool /usr/local/bin/tool\n", rule: "SB010") == ["1:18"])
    }

    @Test func packageFindingsPointAtTheFirstUnpinnedPackage() throws {
        let text = "RUN apk add --no-cache \\\n    curl=8.9.1-r2 \\\n    git\n"
        #expect(try positions(text, rule: "SB018") == ["3:5"])
        #expect(try positions("RUN cargo   install ripgrep@14.1.1\n", rule: "SB026") == ["1:13"])
    }

    @Test func pipePointsAtTheCommandWhoseOutputIsPiped() throws {
        let text = "FROM debian:bookworm-slim\nRUN set -eux; \\\n    curl -fsSL https://example.com/a.tgz \\\n    | tar -xz\n"
        #expect(try positions(text, rule: "SB027") == ["3:5"])
        #expect(try positions(text, rule: "SB028") == ["4:7"])
    }

    @Test func uncheckedDownloadPointsAtTheFileWhereItIsUsed() throws {
        let text = "RUN curl -fsSLo /tmp/tool https://example.com/tool \\\n    && chmod 0755 /tmp/tool\n"
        #expect(try positions(text, rule: "SB028") == ["2:19"])
    }

    @Test func fromOnbuildAndDirectiveFindingsPointAtTheirWords() throws {
        #expect(try positions("ARG TAG\nFROM --platform=linux/amd64 alpine:${TAG}\n", rule: "SB029") == ["2:29"])
        #expect(try positions("FROM alpine:3.20\nONBUILD   FROM alpine:3.20\n", rule: "SB030") == ["2:11"])
        #expect(try positions("FROM alpine:3.20\n\t# syntax=docker/dockerfile:1\n", rule: "SB031") == ["2:2"])
    }
}
