import DockerfileSyntax
import StageKit
import Testing

/// The composition rules of issue 2 part 5 and the output rules of part 6, asserted on the
/// meaning of the output (so that a careless re-recording of a golden file cannot hide a
/// broken rule).
@Suite struct CompositionRuleTests {
    static func fixture(_ name: String) -> FixtureCase { FixtureCase(group: "composed", name: name) }

    /// The template names in the order their blocks appear, `Stagefile` for the Stagefile's own lines.
    static func blockOrder(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("# ["), let close = line.firstIndex(of: "]") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<close])
        }
    }

    static let base = "# summary: base\nFROM alpine:3.20\n"

    // MARK: - Order

    @Test func followsRequiresTransitivelyOncePerBuildStageBeforeTheFirstDependent() throws {
        let output = try Self.fixture("requires-order").compose()
        // service requires runtime and certs (written in that order: ties break by name, so certs
        // first); runtime requires tools; extra requires tools again, which is not repeated;
        // the Stagefile's own RUN keeps its place between USE service and USE extra.
        #expect(Self.blockOrder(output) == ["os", "certs", "tools", "runtime", "service", "Stagefile", "extra"])
        #expect(output.contains("# [tools] stage template Stages/tools.Dockerfile (required by runtime)\n"))
        #expect(output.contains("# [certs] stage template Stages/certs.Dockerfile (required by service)\n"))
        #expect(output.contains("# [service] stage template Stages/service.Dockerfile\n"))
    }

    @Test func keepsTheStagefilesOrderWhenNothingIsRequired() throws {
        let project = MemoryProject(templates: [
            "os": Self.base, "zeta": "# summary: z\nRUN echo zeta\n", "alpha": "# summary: a\nRUN echo alpha\n",
        ])
        let output = try project.compose("FROM stage:os\nUSE zeta\nRUN echo own\nUSE alpha\n")
        #expect(Self.blockOrder(output) == ["os", "zeta", "Stagefile", "alpha"])
    }

    @Test func placesTemplatesRequiredByABaseTemplateRightAfterIt() throws {
        let project = MemoryProject(templates: [
            "os": "# summary: base\n# requires: users, certs\nFROM alpine:3.20\n",
            "users": "# summary: u\nRUN adduser -D app\n", "certs": "# summary: c\nRUN echo certs\n",
        ])
        let output = try project.compose("FROM stage:os\nRUN echo own\n")
        #expect(Self.blockOrder(output) == ["os", "certs", "users", "Stagefile"])
    }

    @Test func composesSeveralBuildStagesEachWithItsOwnTemplates() throws {
        let output = try Self.fixture("build-stages").compose()
        #expect(
            Self.blockOrder(output) == [
                "builder", "Stagefile", "user", "os", "user", "Stagefile", "Stagefile", "user", "Stagefile",
            ])
        let tree = try DockerfileParser.parse(output)
        let stages = tree.instructions.filter { $0.kind == "FROM" }.map { $0.arguments.joined(separator: " ") }
        #expect(stages == ["golang:1.22-bookworm AS build", "debian:bookworm-slim AS runtime", "alpine:3.20 AS smoke"])
        let users = tree.instructions.filter { $0.kind == "ARG" && $0.arguments[0].hasPrefix("USER_NAME=") }.map {
            $0.arguments[0]
        }
        #expect(users == ["USER_NAME=builder", "USER_NAME=server", "USER_NAME=tester"])
        let copies = tree.instructions.filter { $0.kind == "COPY" }.compactMap { $0.asCopy?.from?.text }
        #expect(copies == ["build", "runtime"])
    }

    @Test func allowsTheSameValueForOneParameterInTwoTemplates() throws {
        let project = MemoryProject(templates: [
            "os": Self.base,
            "api": "# summary: a\nARG PORT=8080\nEXPOSE ${PORT}\n",
            "metrics": "# summary: m\nARG PORT\nRUN echo ${PORT}\n",
        ])
        let output = try project.compose("FROM stage:os\nUSE api PORT=9090\nUSE metrics PORT=9090\n")
        #expect(output.components(separatedBy: "ARG PORT=9090\n").count == 3)
    }

    @Test func reportsATemplateThatRequiresItselfAsACycle() throws {
        let project = MemoryProject(templates: ["os": Self.base, "loop": "# summary: l\n# requires: loop\nRUN echo\n"])
        let error = try #require(project.error(composing: "FROM stage:os\nUSE loop\n"))
        // The fault is in the template's own `# requires:` line, so that is where it points.
        #expect(error.description == "Stages/loop.Dockerfile:2:1: requires cycle: loop -> loop")
    }

    // MARK: - Directives and header

    @Test func writesOneSyntaxDirectiveOnTheFirstLine() throws {
        let output = try Self.fixture("syntax-and-arguments").compose()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "# syntax=docker/dockerfile:1.7")
        #expect(lines.filter { $0.hasPrefix("# syntax=") }.count == 1)
        #expect(try DockerfileParser.parse(output).directives.syntax == "docker/dockerfile:1.7")
    }

    @Test func keepsTheStagefilesSyntaxAndCheckDirectivesAtTheTop() throws {
        let project = MemoryProject(templates: ["os": "# syntax=docker/dockerfile:1.7\n# summary: b\nFROM alpine:3.20\n"])
        let output = try project.compose("# syntax=docker/dockerfile:1.7\n# check=error=true\nFROM stage:os\n")
        let lines = output.split(separator: "\n").prefix(2)
        #expect(lines == ["# syntax=docker/dockerfile:1.7", "# check=error=true"])
        let directives = try DockerfileParser.parse(output).directives
        #expect(directives.syntax == "docker/dockerfile:1.7")
        #expect(directives.check == "error=true")
    }

    @Test func headerSaysGeneratedAndNamesTheRegenerateCommand() throws {
        var project = MemoryProject(templates: ["os": Self.base])
        project.regenerateCommand = "stagebuild compose Stagefile -o out/Dockerfile (run in the Stagefile's folder)"
        let output = try project.compose("FROM stage:os\n")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count >= 3)
        #expect(lines[0] == "# Generated by stagebuild compose (format \(Composer.formatVersion)) from Stagefile. Do not edit.")
        #expect(lines[1] == "# Regenerate with: stagebuild compose Stagefile -o out/Dockerfile (run in the Stagefile's folder)")
        #expect(lines[2] == "")
    }

    @Test func provenanceNamesTheTemplateAndItsPathRelativeToTheStagefile() throws {
        var project = MemoryProject(templates: ["os": Self.base, "tools": "# summary: t\nRUN echo tools\n"])
        project.stagefileDirectory = "/home/someone/work/app"
        project.catalogFolder = "/home/someone/work/catalog"
        let output = try project.compose("FROM stage:os\nUSE tools\n")
        #expect(output.contains("\n# [os] stage template ../catalog/os.Dockerfile\nFROM alpine:3.20\n"))
        #expect(output.contains("\n# [tools] stage template ../catalog/tools.Dockerfile\nRUN echo tools\n"))
        #expect(!output.contains("/home"))
    }

    // MARK: - Parameters

    @Test func boundArgumentsStayWhereTheTemplateDeclaresThem() throws {
        let output = try Self.fixture("syntax-and-arguments").compose()
        let block = try #require(ComposerGoldenTests.blocks(of: output).first { $0.hasPrefix("# [web]") })
        let lines = block.split(separator: "\n").map(String.init)
        // BuildKit evaluates an ARG's default, and exposes it to RUN, from where it stands: each
        // ARG keeps its place, the bound value in place of the default; an unbound one is kept
        // as written, and a line declaring two names stays one line.
        #expect(
            lines.filter { $0.hasPrefix("ARG ") } == [
                "ARG PORT=9090", "ARG ROOT='/srv/my site'", #"ARG GREETING="it's \"data\", not \$CODE""#,
                "ARG MODE=0644 OWNER=www-data",
            ])
        let mkdir = try #require(lines.firstIndex { $0.hasPrefix("RUN mkdir") })
        let greeting = try #require(lines.firstIndex { $0.hasPrefix("ARG GREETING") })
        #expect(mkdir < greeting)
        #expect(!block.contains("hello, world"))
    }

    @Test func argumentDefaultsSeeWhatIsSetAboveThem() throws {
        let project = MemoryProject(templates: [
            "derived": "# param BIN_DIR: where\nENV PREFIX=/opt/tool\nARG BIN_DIR=${PREFIX}/bin\nRUN echo $BIN_DIR\n",
            "late": "# param MODE: mode\nRUN echo \"[$MODE]\"\nARG MODE=fast\nRUN echo \"[$MODE]\"\n",
        ])
        let output = try project.compose("FROM debian:12\nUSE derived\nUSE late MODE=slow\n")
        #expect(output.contains("ENV PREFIX=/opt/tool\nARG BIN_DIR=${PREFIX}/bin\nRUN echo $BIN_DIR\n"))
        #expect(output.contains("RUN echo \"[$MODE]\"\nARG MODE=slow\nRUN echo \"[$MODE]\"\n"))
    }

    @Test func keepsTheTemplatesFormattingCommentsAndContinuations() throws {
        let output = try Self.fixture("syntax-and-arguments").compose()
        #expect(
            output.contains(
                """
                RUN mkdir -p "${ROOT}"

                # The page; its text comes from a parameter.
                ARG GREETING="it's \\"data\\", not \\$CODE"
                ARG MODE=0644 OWNER=www-data
                RUN printf '%s\\n' "${GREETING}" > "${ROOT}/index.html" \\
                    && chmod "${MODE}" "${ROOT}/index.html" \\
                """))
        // The metadata comments above the first instruction are not copied.
        #expect(!output.contains("# param PORT"))
        #expect(!output.contains("# summary:"))
    }

    // MARK: - Bytes

    @Test(arguments: FixtureCase.all("composed"))
    func writesLFLineEndingsAndExactlyOneTrailingNewline(_ fixture: FixtureCase) throws {
        let output = try fixture.compose()
        let tree = try DockerfileParser.parse(output)
        // A CR may stand only in a heredoc body, whose bytes are a file's content.
        let heredocCRs = tree.instructions.flatMap(\.heredocs).map { $0.content.unicodeScalars.filter { $0 == "\r" }.count }
        #expect(output.unicodeScalars.filter { $0 == "\r" }.count == heredocCRs.reduce(0, +))
        #expect(output.hasSuffix("\n"))
        #expect(!output.hasSuffix("\n\n"))
    }

    @Test func turnsCRLFInstructionLinesIntoLFAndKeepsHeredocBodies() throws {
        let fixture = Self.fixture("crlf-endings")
        // The fixture really is what the test is about (git must not have normalised it).
        let template = try fixture.text("Stages/os.Dockerfile")
        try #require(template.contains("\r\n") && !template.hasSuffix("\n"))
        try #require(try fixture.text("Stagefile").contains("\r\n"))
        try #require(try fixture.text("Stages/tidy.Dockerfile").hasSuffix("\n\n\n\n"))

        let output = try fixture.compose()
        #expect(output.contains("RUN <<EOF\necho one\r\necho two\r\nEOF\nRUN echo last\n\n# [tidy]"))
        #expect(output.hasSuffix("RUN rm -rf /tmp/*\n\n# [Stagefile] Stagefile:4\nRUN echo done\n"))
    }

    /// Every line-end form BuildKit reads as the end of a continued line: CRLF, `\\` + tab,
    /// CR CR LF, a comment or blank lines after the `\\`, and the end of the file itself.
    @Test(arguments: ["\\\r\n", "\\\t\r\n", "\\\r\r\n", "\\\n# a comment\n\n", "\\\r\n\r\n", "\\"])
    func refusesATemplateEndingInsideAContinuation(lineEnd: String) throws {
        let project = MemoryProject(templates: [
            "open": "# summary: open\nRUN echo first \(lineEnd)", "next": "RUN echo second\n",
        ])
        let error = try #require(project.error(composing: "FROM debian:12\nUSE open\nUSE next\n"))
        #expect(error.file == "Stages/open.Dockerfile")
        #expect(error.location == SourceLocation(line: 2, column: 1))
        #expect(error.message.hasPrefix("the last instruction ends with a line continuation"))
    }

    /// A Stagefile's last instruction stays last in the composed file: BuildKit reads a
    /// continuation open at the end of the file to its end, and so does compose (generated
    /// Stagefiles end so).
    @Test(arguments: [
        ("\\\r\n", "\\\n"), ("\\", "\\\n"), ("\\\n# trailing comment\n", "\\\n# trailing comment\n"),
    ])
    func acceptsAStagefileEndingInsideAContinuation(ending: String, composed: String) throws {
        let project = MemoryProject(templates: ["tidy": "# summary: tidy\nRUN rm -rf /tmp/*\n"])
        let output = try project.compose("FROM debian:12\nUSE tidy\nRUN echo last \(ending)")
        #expect(output.hasSuffix("\nRUN echo last \(composed)"))
    }

    /// `COPY --from` and a mount's `from=` with a variable (BuildKit: "variable expansion is not
    /// supported for --from") and a quoted `COPY --from`, in a template or a Stagefile.
    @Test(arguments: [
        ("COPY --from=${BUILDER} /out/app /app", 13, "names its stage through a variable"),
        ("COPY --from=\"registry.example/bb:1\" /bin/bb /bb", 6, "is quoted"),
        ("COPY --chown=1:1 --from=$B /x /x", 25, "names its stage through a variable"),
        ("RUN --mount=type=bind,from=${B},target=/m true", 28, "names its stage through a variable"),
    ])
    func refusesAFromWordNoBuilderReads(line: String, column: Int, what: String) throws {
        let project = MemoryProject(templates: ["copy": "# summary: copy\nARG BUILDER=build\nARG B=build\n\(line)\n"])
        let error = try #require(project.error(composing: "FROM debian:12 AS build\nFROM debian:12\nUSE copy\n"))
        #expect(error.file == "Stages/copy.Dockerfile")
        #expect(error.location == SourceLocation(line: 4, column: column))
        #expect(error.message.contains(what))
        let inStagefile = try #require(project.error(composing: "FROM debian:12 AS build\nFROM debian:12\n\(line)\n"))
        #expect(inStagefile.location == SourceLocation(line: 3, column: column))
    }

    @Test func acceptsFromWordsBuildersRead() throws {
        let project = MemoryProject(templates: [:])
        let stagefile = """
            ARG BASE=debian:12
            FROM ${BASE} AS build
            FROM debian:12
            COPY --from=build /a /a
            COPY --from=0 /b /b
            RUN --mount=type=bind,from=registry.example/tools:1,target=/t ls /t
            COPY --from=registry.example/tools:1 /c /c

            """
        _ = try project.compose(stagefile)
    }

    @Test func refusesAnUnknownInstructionInATemplateAsInAStagefile() throws {
        let project = MemoryProject(templates: ["typo": "# summary: typo\nRUN echo a\n  COPPY a /a\n"])
        let error = try #require(project.error(composing: "FROM debian:12\nUSE typo\n"))
        #expect(error.description == "Stages/typo.Dockerfile:3:3: unknown instruction COPPY; did you mean COPY?")
        let inStagefile = try #require(project.error(composing: "FROM debian:12\nCOPPY a /a\n"))
        #expect(inStagefile.message == error.message)
    }

    @Test func keepsIgnorePragmasAboveALayerTemplatesFirstInstruction() throws {
        let project = MemoryProject(templates: [
            "tools":
                "# summary: tools\n# stagebuild ignore=SB003 follows the snapshot\n# hadolint ignore=DL3008\nRUN apt-get install -y curl\n",
            "db": "# summary: db\n# stagebuild ignore=SB014 a test password\nARG DB_PASSWORD=test\nRUN echo\n",
        ])
        let output = try project.compose("FROM debian:12\nUSE tools\nUSE db DB_PASSWORD=other\n")
        #expect(
            output.contains(
                "# stagebuild ignore=SB003 follows the snapshot\n# hadolint ignore=DL3008\nRUN apt-get install -y curl\n"))
        #expect(output.contains("# stagebuild ignore=SB014 a test password\nARG DB_PASSWORD=other\n"))
        #expect(!output.contains("# summary"))
    }

    @Test func writesTheAliasKeywordInTheCaseOfFrom() throws {
        let lower = MemoryProject(templates: ["os": "# summary: os\nfrom debian:12\nrun echo hi\n"])
        #expect(try lower.compose("FROM stage:os AS app\n").contains("\nfrom debian:12 as app\n"))
        let upper = MemoryProject(templates: ["os": "# summary: os\nFrom debian:12\n"])
        #expect(try upper.compose("FROM stage:os AS app\n").contains("\nFrom debian:12 AS app\n"))
    }

    @Test func readsTheTemplatePrefixInAnyCase() throws {
        let project = MemoryProject(templates: ["os": "# summary: os\nFROM debian:12\n"])
        #expect(try project.compose("FROM STAGE:os AS app\n").contains("\nFROM debian:12 AS app\n"))
    }

    @Test func refusesAValueThatOutgrowsALineOnceQuoted() throws {
        let project = MemoryProject(templates: ["t": "# summary: t\nARG V\n"])
        let value = "'" + String(repeating: "$", count: 40_000)
        let error = try #require(project.error(composing: "FROM debian:12\nUSE t \\\n V=\"\(value)\"\n"))
        #expect(error.location == SourceLocation(line: 3, column: 2))
        #expect(error.message.hasPrefix("value of V is 80003 bytes once quoted"))
        #expect(error.message.hasSuffix("a Dockerfile line holds at most 65535"))
    }

    @Test func explainsWhyAnAutomaticArgumentTakesNoDefault() throws {
        let project = MemoryProject(templates: ["stamp": "# summary: s\nARG SOURCE_DATE_EPOCH=0\n"])
        let error = try #require(project.error(composing: "FROM debian:12\nUSE stamp\n"))
        #expect(error.location == SourceLocation(line: 2, column: 5))
        #expect(error.message.contains("declare it without a default (ARG SOURCE_DATE_EPOCH)"))
    }

    @Test func pointsAtABindingOnAContinuedCRLFLine() throws {
        let project = MemoryProject(templates: ["layer": "# summary: l\nARG V\n"])
        for lineEnd in ["\n", "\r\n"] {
            let stagefile = ["FROM debian:12", "USE layer V=1 \\", "    W=1", ""].joined(separator: lineEnd)
            let error = try #require(project.error(composing: stagefile))
            #expect(error.location == SourceLocation(line: 3, column: 5), "line end \(lineEnd.debugDescription)")
        }
    }

    @Test func composingTwiceGivesTheSameBytes() throws {
        for fixture in FixtureCase.all("composed") {
            #expect(try fixture.compose() == fixture.compose(), "\(fixture.name)")
        }
    }

    // MARK: - Faults found while writing these tests

    @Test func rejectsTemplateWhoseLastInstructionEndsWithALineContinuation() throws {
        let project = MemoryProject(templates: [
            "os": "# summary: base\nFROM alpine:3.20\nRUN echo one \\\n# a comment after the open line\n",
            "two": "# summary: t\nRUN echo two\n",
        ])
        let error = try #require(project.error(composing: "FROM stage:os\nUSE two\n"))
        #expect(error.file == "Stages/os.Dockerfile")
        #expect(error.location == DockerfileSyntax.SourceLocation(line: 3, column: 1))
        #expect(error.message.contains("line continuation"))
    }

    @Test func acceptsTemplateEndingInAHeredocOrWithoutAFinalNewline() throws {
        let project = MemoryProject(templates: [
            "os": "# summary: base\nFROM alpine:3.20\nRUN <<EOF\necho one \\\nEOF\n",
            "two": "# summary: t\nRUN echo two",
        ])
        let output = try project.compose("FROM stage:os\nUSE two\nRUN echo three\n")
        #expect(try DockerfileParser.parse(output).instructions.count == 4)
    }

    @Test func rejectsUseBeforeAnyFrom() throws {
        let project = MemoryProject(templates: ["os": Self.base, "tools": "# summary: t\nRUN echo tools\n"])
        let error = try #require(project.error(composing: "# tools first\nUSE tools\nFROM stage:os\n"))
        #expect(error.description.hasPrefix("Stagefile:2:5: USE tools comes before any FROM"))
    }

    @Test func reportsABindingOnAContinuationLineAtItsOwnLineAndColumn() throws {
        let project = MemoryProject(templates: ["os": Self.base, "web": "# summary: w\nARG PORT=1\nEXPOSE ${PORT}\n"])
        let stagefile = "FROM stage:os\nUSE web \\\n    # a comment inside the instruction\n    PORT=80 \\\n  PROT=8080\n"
        let error = try #require(project.error(composing: stagefile))
        #expect(error.description.hasPrefix("Stagefile:5:3: stage template 'web' has no parameter PROT"))
    }
}

/// Composition warns, never silently, where the result is not what a reader of the parts expects.
@Suite struct CompositionWarningTests {
    static func warnings(_ stagefile: String, templates: [String: String]) throws -> [CompositionError] {
        let project = MemoryProject(templates: templates)
        return try project.composer.composition(of: try Stagefile(text: stagefile, displayPath: "Stagefile")).warnings
    }

    @Test(arguments: ["USER", "WORKDIR", "ENTRYPOINT", "CMD", "SHELL"])
    func twoTemplatesSettingTheSameInstructionSayWhichWins(keyword: String) throws {
        let value = ["ENTRYPOINT", "CMD", "SHELL"].contains(keyword) ? #"["/bin/sh", "-c"]"# : "/srv"
        let warnings = try Self.warnings(
            "FROM debian:12\nUSE first\nUSE second\n",
            templates: ["first": "RUN true\n\(keyword) \(value)\n", "second": "\(keyword) \(value)\n"])
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.file == "Stages/second.Dockerfile")
        #expect(warning.location == SourceLocation(line: 1, column: 1))
        #expect(warning.message.contains("set by stage template 'first' and again by 'second'"))
        #expect(warning.message.hasSuffix("so its \(keyword) wins"))
    }

    /// `compose-workdir-warning-relative`: a relative WORKDIR joins the one before it, and the
    /// warning says where the later template's steps run.
    @Test func aRelativeWorkdirAfterAnotherSaysWhereItLeads() throws {
        let warnings = try Self.warnings(
            "FROM debian:12\nUSE abs\nUSE rel\n",
            templates: ["abs": "WORKDIR /abs\nUSER app\n", "rel": "WORKDIR sub\nRUN touch x\n"])
        #expect(
            warnings.map(\.message) == [
                "WORKDIR sub of stage template 'rel' is relative, so after 'abs' it is /abs/sub "
                    + "(alone it is relative to its base image's WORKDIR, / by default)"
            ])
        let unknown = try Self.warnings(
            "FROM debian:12\nUSE abs\nUSE rel\n", templates: ["abs": "ARG DIR=/x\nWORKDIR $DIR\n", "rel": "WORKDIR sub\n"])
        #expect(unknown.first?.message.contains("after 'abs' it is relative to that one") == true)
    }

    /// `compose-param-same-value-refused`: `3000` and `"3000"` are one value to the builder.
    @Test func oneValueWrittenTwoWaysIsOneValue() throws {
        let project = MemoryProject(templates: ["l1": "ARG PORT=3000\nRUN true\n", "l2": "ARG PORT=\"3000\"\nRUN true\n"])
        #expect(try project.compose("FROM debian:12\nUSE l1\nUSE l2\n").contains("ARG PORT=\"3000\""))
        #expect(try project.compose("FROM debian:12\nUSE l1 PORT=3000\nUSE l2\n").contains("ARG PORT=3000"))
        #expect(
            project.error(composing: "FROM debian:12\nUSE l1 PORT=3001\nUSE l2\n")?.message.contains("give both the same value")
                == true)
    }

    @Test func oneTemplateInEachBuildStageIsNoWarning() throws {
        let templates = ["user": "USER app\n"]
        #expect(try Self.warnings("FROM debian:12 AS a\nUSE user\nFROM debian:12 AS b\nUSE user\n", templates: templates).isEmpty)
    }

    @Test func aParameterShadowingAStagefileArgIsAWarningAtTheParameter() throws {
        let warnings = try Self.warnings(
            "ARG MODE=global\nFROM debian:12\nARG PORT=1\nUSE web MODE=x\n", templates: ["web": "RUN true\n  arg PORT=80 MODE\n"])
        #expect(warnings.map(\.location) == [SourceLocation(line: 2, column: 7), SourceLocation(line: 2, column: 15)])
        #expect(warnings.allSatisfy { $0.message.contains("shadows the Stagefile's ARG") })
    }

    /// BuildKit rejects a Dockerfile whose build stages share a name: compose refuses it.
    @Test func aBuildStageNameUsedTwiceIsAnError() throws {
        let project = MemoryProject(templates: ["os": "FROM debian:12\n"])
        let error = try #require(project.error(composing: "FROM debian:12 AS app\nRUN true\nFROM stage:os AS App\n"))
        #expect(error.file == "Stagefile")
        #expect(error.location?.line == 3)
        #expect(error.message.contains("'App' is used twice (also at line 1)"))
    }

    @Test func aPragmaAboveTheMetadataStillReachesTheFirstInstruction() throws {
        let project = MemoryProject(templates: [
            "b": "# stagebuild ignore=SB001,SB002 pinned elsewhere\n# summary: b\nFROM debian\nRUN true\n"
        ])
        let output = try project.compose("FROM stage:b AS x\nUSER nobody\n")
        #expect(output.contains("# stagebuild ignore=SB001,SB002 pinned elsewhere\nFROM debian AS x\n"))
        #expect(!output.contains("# summary"))
    }

    /// The base template's FROM keeps its flags as written, quotes and all.
    @Test func aBaseTemplatesFlagsReachTheOutputAsWritten() throws {
        let project = MemoryProject(templates: ["b": "FROM --platform=\"$BUILDPLATFORM\" debian:12\n"])
        let output = try project.compose("FROM stage:b AS x\nUSER nobody\n")
        #expect(output.contains("\nFROM --platform=\"$BUILDPLATFORM\" debian:12 AS x\n"))
    }

    @Test func useWithAFlagIsAnErrorAtTheFlag() throws {
        let project = MemoryProject(templates: ["os": "FROM debian:12\n", "t": "RUN true\n"])
        let error = try #require(project.error(composing: "FROM stage:os\nUSE  --link t\n"))
        #expect(error.location == SourceLocation(line: 2, column: 6))
        #expect(error.message.contains("USE takes no flags"))
    }

    @Test func aBaseTemplatesFromWithAnAliasIsAnErrorAtAs() throws {
        let project = MemoryProject(templates: ["os": "FROM debian:12 AS base\n"])
        let error = try #require(project.error(composing: "FROM stage:os\nRUN true\n"))
        #expect(error.location == SourceLocation(line: 1, column: 16))
    }
}

/// A value whose meaning depends on the builder: an `ARG` with a value after an `ENV` of the same
/// name in one build stage is the ARG's value under BuildKit and the ENV's under buildah and
/// podman (Dockerfile reference, "ARG"); compose refuses it at the ARG, naming the ENV.
@Suite struct EnvironmentSplitTests {
    static let templates = [
        "app": "# summary: app\n# param APP_DIR: where\nARG APP_DIR=/srv/app\nWORKDIR ${APP_DIR}\nENV PORT=8080\n",
        "metrics": "# summary: metrics\n# param PORT: port\nARG PORT=9100\nLABEL metrics.port=${PORT}\n",
        "dir": "# summary: dir\n# param DIR: where\nARG DIR=/x\nWORKDIR ${DIR}\n",
    ]

    @Test func refusesAParameterAfterTheStagefilesEnvOfTheSameName() throws {
        let project = MemoryProject(templates: Self.templates)
        let error = try #require(
            project.error(composing: "FROM debian:12\nENV APP_DIR=/srv/from-env\nUSE app APP_DIR=/opt/app\n"))
        #expect(error.file == "Stages/app.Dockerfile")
        #expect(error.location == SourceLocation(line: 3, column: 5))
        #expect(error.message.hasPrefix("parameter APP_DIR of stage template 'app' comes after ENV APP_DIR (Stagefile:2)"))
        #expect(
            error.message.contains("BuildKit reads the ARG's value (/opt/app), buildah and podman keep the ENV's (/srv/from-env)")
        )
    }

    @Test func refusesAParameterAfterAnotherTemplatesEnv() throws {
        let project = MemoryProject(templates: Self.templates)
        let error = try #require(project.error(composing: "FROM debian:12\nUSE app\nUSE metrics PORT=9300\n"))
        #expect(error.file == "Stages/metrics.Dockerfile")
        #expect(error.message.contains("comes after ENV PORT (Stages/app.Dockerfile:5)"))
    }

    @Test func refusesAnEnvInheritedFromTheBuildStageItStartsFrom() throws {
        let project = MemoryProject(templates: Self.templates)
        let error = try #require(
            project.error(composing: "FROM debian:12 AS base\nENV DIR=/from-base\nFROM base\nUSE dir DIR=/y\n"))
        #expect(error.message.contains("comes after ENV DIR (Stagefile:2)"))
    }

    @Test func refusesTheStagefilesArgAfterATemplatesEnv() throws {
        let project = MemoryProject(templates: Self.templates)
        let error = try #require(project.error(composing: "FROM debian:12\nUSE app\nARG PORT=9000\nRUN echo $PORT\n"))
        #expect(error.file == "Stagefile")
        #expect(error.location == SourceLocation(line: 3, column: 5))
        #expect(error.message.hasSuffix("rename the ARG, or drop the ENV"))
    }

    /// A required parameter left to the Stagefile's global ARG reads its value after the ENV too.
    @Test func refusesARequiredParameterReadingTheGlobalArgAfterAnEnv() throws {
        let project = MemoryProject(templates: Self.templates.merging(["req": "# summary: r\nARG PORT\nRUN echo $PORT\n"]) { $1 })
        let error = try #require(project.error(composing: "ARG PORT=1\nFROM debian:12\nENV PORT=8080\nUSE req\n"))
        #expect(error.message.contains("BuildKit reads the ARG's value (1), buildah and podman keep the ENV's (8080)"))
    }

    /// A parent named through a global ARG (`FROM ${BASE}`) passes its ENV on, and the message says so.
    @Test func aParentNamedThroughAGlobalArgPassesItsEnvOn() throws {
        let project = MemoryProject(templates: Self.templates)
        let error = try #require(
            project.error(composing: "ARG BASE=a\nFROM debian:12 AS a\nENV DIR=/from-a\nFROM ${BASE} AS b\nUSE dir DIR=/b\n"))
        #expect(error.message.contains("comes after ENV DIR (Stagefile:3), which build stage a passes on"))
    }

    /// A template placed again in a stage built from one that has it: its ENV holds its own
    /// parameter's value, which the ARG gives again, so nothing splits.
    @Test func aTemplatePlacedAgainAfterItsParentStageIsNoSplit() throws {
        let project = MemoryProject(templates: [
            "runtime": "# summary: r\n# param NODE_ENV: mode\nARG NODE_ENV=production\nENV NODE_ENV=${NODE_ENV}\n"
        ])
        _ = try project.compose("FROM debian:12 AS base\nUSE runtime\nFROM base AS app\nUSE runtime\n")
        let error = try #require(
            project.error(composing: "FROM debian:12 AS base\nUSE runtime\nFROM base AS app\nUSE runtime NODE_ENV=staging\n"))
        #expect(
            error.message.contains("BuildKit reads the ARG's value (staging), buildah and podman keep the ENV's (production)"))
    }

    @Test(arguments: [
        // Other names; the same value; an ENV of another build stage; an ARG without a value;
        // the Stagefile's own ENV and ARG (a plain Dockerfile's business, passed through).
        "FROM debian:12\nENV OTHER=1\nUSE app APP_DIR=/opt/app\n",
        "FROM debian:12\nENV APP_DIR=/opt/app\nUSE app APP_DIR=/opt/app\n",
        "FROM debian:12 AS one\nENV DIR=/a\nFROM debian:12\nUSE dir DIR=/b\n",
        "FROM debian:12\nUSE app\nARG PORT\n",
        "FROM debian:12\nENV X=1\nARG X=2\n",
    ])
    func composesWhereEveryBuilderReadsTheSameValue(stagefile: String) throws {
        _ = try MemoryProject(templates: Self.templates).compose(stagefile)
    }
}

/// What templates can say: `FROM --platform=… stage:NAME`, and a required parameter that reads
/// the Stagefile's global ARG when USE binds none.
@Suite struct TemplateFormTests {
    static let templates = [
        "go": "# summary: go\n# param GO_VERSION: go\nARG GO_VERSION=1.23\nFROM --platform=linux/amd64 golang:${GO_VERSION}\n",
        "versioned": "# summary: v\n# param VERSION: the release\nARG VERSION\nRUN echo \"$VERSION\" > /version\n",
    ]

    @Test func fromPlatformOfTheStagefileTakesThePlaceOfTheTemplates() throws {
        let output = try MemoryProject(templates: Self.templates).compose(
            "FROM --platform=$BUILDPLATFORM stage:go AS build GO_VERSION=1.22\nFROM stage:go AS target\n")
        #expect(output.contains("\nFROM --platform=$BUILDPLATFORM golang:1.22 AS build\n"))
        #expect(output.contains("\nFROM --platform=linux/amd64 golang:1.23 AS target\n"))
    }

    @Test(arguments: ["FROM --platform=a --platform=b stage:go\n", "FROM --network=none stage:go\n"])
    func fromStageTakesOnlyOnePlatformFlag(stagefile: String) throws {
        let error = try #require(MemoryProject(templates: Self.templates).error(composing: stagefile))
        #expect(error.message.hasPrefix("FROM stage: takes one flag, --platform=PLATFORM"))
    }

    /// A parameter the base template's FROM flag reads (`--platform=${PLAT}`) has its value
    /// written into the flag, as into the image: its ARG line is not written.
    @Test func aParameterInTheFromFlagIsWrittenIntoIt() throws {
        let project = MemoryProject(templates: [
            "plat": "# summary: p\n# param PLAT: platform\nARG PLAT=linux/amd64\nFROM --platform=${PLAT} golang:1.23\n"
        ])
        let output = try project.compose("FROM stage:plat AS a PLAT=linux/arm64\nFROM stage:plat AS b\n")
        #expect(output.contains("\nFROM --platform=linux/arm64 golang:1.23 AS a\n"))
        #expect(output.contains("\nFROM --platform=linux/amd64 golang:1.23 AS b\n"))
        let error = try #require(project.error(composing: "FROM stage:plat PLAT=\"a b\"\n"))
        #expect(error.message.contains("goes into stage template 'plat''s FROM flag"))
    }

    /// A rewritten FROM (another platform, a parameter's value) names its image at the
    /// template's own column in messages, not the composed file's.
    @Test func anImageOfARewrittenFromIsPlacedInTheTemplate() throws {
        let project = MemoryProject(templates: [
            "plat": "# summary: p\n# param PLAT: platform\nARG PLAT=linux/amd64\nFROM --platform=${PLAT} golang:1.23\n"
        ])
        let composition = try project.composer.composition(
            of: try Stagefile(text: "FROM --platform=$BUILDPLATFORM stage:plat AS build\n", displayPath: "Stagefile"))
        let mention = try #require(composition.images.first { $0.kind == .from })
        let source = try #require(composition.source(of: mention))
        #expect(source.file == "Stages/plat.Dockerfile")
        #expect(source.location == SourceLocation(line: 4, column: 25))
    }

    @Test(arguments: [
        "FROM --platform $BUILDPLATFORM golang:1.23\n", "FROM debian:12 AS b\nFROM debian:12\nCOPY --from b /a /a\n",
    ])
    func refusesAFlagWithoutItsValue(stagefile: String) throws {
        let error = try #require(MemoryProject(templates: Self.templates).error(composing: stagefile))
        #expect(error.message.contains("has no value: write it"))
    }

    @Test func aQuotedMountSourceIsRefusedAsAQuotedCopyIs() throws {
        let error = try #require(
            MemoryProject(templates: Self.templates).error(
                composing: "FROM debian:12\nRUN --mount=type=bind,from=\"registry.example/t:1\",target=/t ls /t\n"))
        #expect(error.message.contains("is quoted"))
    }

    @Test func aRequiredParameterReadsTheStagefilesGlobalArg() throws {
        let project = MemoryProject(templates: Self.templates)
        let composition = try project.composer.composition(
            of: try Stagefile(text: "ARG VERSION=1.2\nFROM debian:12\nUSE versioned\n", displayPath: "Stagefile"))
        #expect(composition.text.contains("\nARG VERSION\nRUN echo \"$VERSION\" > /version\n"))
        #expect(composition.warnings.isEmpty, "\(composition.warnings)")
        // Bound, the value is the USE's, and the global ARG is shadowed from there on.
        let bound = try project.composer.composition(
            of: try Stagefile(text: "ARG VERSION=1.2\nFROM debian:12\nUSE versioned VERSION=2.0\n", displayPath: "Stagefile"))
        #expect(bound.text.contains("\nARG VERSION=2.0\n"))
        #expect(bound.warnings.map(\.message).contains { $0.contains("shadows the Stagefile's ARG VERSION") })
        // Without the global ARG, or with one that has no value, it is still required.
        let error = try #require(project.error(composing: "FROM debian:12\nUSE versioned\n"))
        #expect(error.message.contains("needs a value for its parameter VERSION"))
        let valueless = try #require(project.error(composing: "ARG VERSION\nFROM debian:12\nUSE versioned\n"))
        #expect(valueless.message.contains("the Stagefile's global ARG VERSION has no value to give it"))
        // An ARG of the stage without a value beside the global one shadows nothing.
        let inStage = try project.composer.composition(
            of: try Stagefile(text: "ARG VERSION=1\nFROM debian:12\nARG VERSION\nUSE versioned\n", displayPath: "Stagefile"))
        #expect(inStage.warnings.isEmpty, "\(inStage.warnings)")
    }
}

/// The Stagefile's `USER`, `SHELL` and relative `WORKDIR` reach the commands of the templates
/// placed after them: compose warns at the Stagefile's line, as it warns between templates.
@Suite struct StagefileSettingWarningTests {
    static let templates = [
        "apt": "# summary: apt\nRUN apt-get update && apt-get install -y curl\n",
        "own-user": "# summary: own user\nUSER root\nRUN apt-get update\n",
        "labels": "# summary: labels only\nLABEL a=b\n",
        "exec": "# summary: exec form\nRUN [\"/bin/true\"]\n",
    ]

    @Test(arguments: [
        ("FROM debian:12\nUSER nobody\nUSE apt\n", "USER nobody comes before stage template 'apt'", "run as that user"),
        (
            "FROM debian:12\nSHELL [\"/bin/bash\", \"-c\"]\nUSE apt\n", "SHELL [\"/bin/bash\", \"-c\"] comes before",
            "in that shell"
        ),
        ("FROM debian:12\nWORKDIR app\nUSE apt\n", "WORKDIR app comes before stage template 'apt'", "base image's WORKDIR"),
    ])
    func warnsAtTheStagefilesLine(stagefile: String, start: String, effect: String) throws {
        let project = MemoryProject(templates: Self.templates)
        let composition = try project.composer.composition(of: try Stagefile(text: stagefile, displayPath: "Stagefile"))
        let warning = try #require(composition.warnings.first)
        #expect(warning.file == "Stagefile" && warning.location?.line == 2)
        #expect(warning.message.hasPrefix(start) && warning.message.contains(effect), "\(warning.message)")
    }

    @Test func aSettingOfTheStageBuiltFromReachesTheTemplate() throws {
        let project = MemoryProject(templates: Self.templates)
        let composition = try project.composer.composition(
            of: try Stagefile(text: "FROM debian:12 AS a\nUSER app\nFROM a AS b\nUSE apt\n", displayPath: "Stagefile"))
        #expect(composition.warnings.first?.message.hasPrefix("USER app comes before stage template 'apt'") == true)
    }

    @Test(arguments: [
        // Root, an absolute folder (quoted too), the default shell, a template without commands
        // or with exec-form ones only (for SHELL), one that sets its own user first, and the
        // setting after the template.
        "FROM debian:12\nWORKDIR \"/app\"\nUSE apt\n", "FROM debian:12\nSHELL [\"/bin/sh\", \"-c\"]\nUSE apt\n",
        "FROM debian:12\nSHELL [\"/bin/bash\", \"-c\"]\nUSE exec\n",
        "FROM debian:12\nUSER root\nUSE apt\n", "FROM debian:12\nWORKDIR /srv\nUSE apt\n",
        "FROM debian:12\nUSER nobody\nUSE labels\n", "FROM debian:12\nUSER nobody\nUSE own-user\n",
        "FROM debian:12\nUSE apt\nUSER nobody\n", "FROM debian:12\nUSER nobody\nUSER 0\nUSE apt\n",
    ])
    func staysQuietWhereNothingIsInherited(stagefile: String) throws {
        let project = MemoryProject(templates: Self.templates)
        let composition = try project.composer.composition(of: try Stagefile(text: stagefile, displayPath: "Stagefile"))
        #expect(composition.warnings.isEmpty, "\(composition.warnings)")
    }
}
