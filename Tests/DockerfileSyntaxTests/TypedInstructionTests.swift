import DockerfileSyntax
import Testing

/// The typed views read each instruction as the Dockerfile reference defines it, and every
/// word they give with a range is the text written at that range in the file.
@Suite struct TypedInstructionTests {
    static func instruction(_ text: String, at index: Int = 0) throws -> Instruction {
        try DockerfileParser.parse(text).instructions[index]
    }

    /// The text a source range covers in a file.
    static func text(at range: SourceRange, in file: String) -> String {
        let line = file.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)[range.start.line - 1]
        let start = line.index(line.startIndex, offsetBy: range.start.column - 1)
        return String(String.UnicodeScalarView(line[start..<line.index(start, offsetBy: range.length)]))
    }

    @Test func fromGivesPlatformBaseAndAliasWhereTheyAreWritten() throws {
        let file = "FROM --platform=$BUILDPLATFORM \\\n  golang:1.22 \\\n  As build\n"
        let instruction = try Self.instruction(file)
        let from = try #require(instruction.asFrom)
        #expect(from.platform?.text == "$BUILDPLATFORM")
        #expect(from.base?.text == "golang:1.22")
        #expect(from.asKeyword?.text == "As")
        #expect(from.stageName == "build")
        #expect(instruction.location(of: from.base!) == SourceLocation(line: 2, column: 3))
        #expect(instruction.location(of: from.alias!) == SourceLocation(line: 3, column: 6))
        #expect(instruction.location(of: from.platform!) == SourceLocation(line: 1, column: 17))
    }

    @Test func argGivesEachDeclarationWithItsNameAndDefault() throws {
        let instruction = try Self.instruction("ARG A B=\"two words\" C=\n")
        let declarations = try #require(instruction.asArg).declarations
        #expect(declarations.map(\.name.text) == ["A", "B", "C"])
        #expect(declarations.map(\.defaultValue?.text) == [nil, "\"two words\"", ""])
        try #require(declarations.count >= 2)
        #expect(instruction.location(of: declarations[1].defaultValue!) == SourceLocation(line: 1, column: 9))
    }

    @Test func envReadsPairsAndTheLegacyForm() throws {
        let pairs = try #require(try Self.instruction("ENV A=1 B=\"x y\"\n").asKeyValue)
        #expect(!pairs.isLegacyForm)
        #expect(pairs.pairs.map(\.key.text) == ["A", "B"])
        #expect(pairs.pairs.map(\.value.text) == ["1", "\"x y\""])
        try #require(pairs.pairs.count >= 2)
        #expect(pairs.pairs[1].value.range == 10..<15)
        let legacy = try #require(try Self.instruction("ENV PATH /usr/local/bin:$PATH\n").asKeyValue)
        #expect(legacy.isLegacyForm)
        #expect(legacy.pairs.map(\.value.text) == ["/usr/local/bin:$PATH"])
    }

    @Test func copyGivesFlagsSourcesAndDestination() throws {
        let instruction = try Self.instruction("COPY --link --from=build --chown=app:app a b /dest/\n")
        let copy = try #require(instruction.asCopy)
        #expect(copy.link)
        #expect(copy.from?.text == "build")
        #expect(copy.chown?.text == "app:app")
        #expect(copy.sources.map(\.text) == ["a", "b"])
        #expect(copy.destination?.text == "/dest/")
        #expect(instruction.location(of: copy.from!) == SourceLocation(line: 1, column: 20))
        let json = try #require(try Self.instruction("ADD --checksum=sha256:ab [\"a b\", \"/c\"]\n").asCopy)
        #expect(json.isJSONForm && json.sources.map(\.text) == ["a b"] && json.destination?.text == "/c")
        #expect(json.checksum?.text == "sha256:ab")
    }

    @Test func runGivesMountsAndItsCommandInEitherForm() throws {
        let instruction = try Self.instruction(
            "RUN --mount=type=cache,target=/root/.cache --mount=from=tools,source=/bin/x,target=/x ./build.sh\n")
        let run = try #require(instruction.asRun)
        #expect(run.mounts.map(\.type) == ["cache", "bind"])
        try #require(run.mounts.count >= 2)
        #expect(run.mounts[1].from?.text == "tools")
        #expect(instruction.location(of: run.mounts[1].from!) == SourceLocation(line: 1, column: 57))
        #expect(run.command == .shell(InstructionWord(text: "./build.sh", range: 86..<96)))
        let exec = try #require(try Self.instruction("RUN [\"make\", \"all\"]\n").asRun)
        #expect(exec.command?.words.map(\.text) == ["make", "all"])
        let heredoc = try #require(try Self.instruction("RUN <<EOF\necho hi\nEOF\n").asRun)
        #expect(heredoc.heredocs.map(\.content) == ["echo hi\n"])
    }

    @Test func theOtherInstructionsReadTheirValues() throws {
        #expect(try Self.instruction("USER app:staff\n").asUser.map { [$0.user, $0.group] } == ["app", "staff"])
        #expect(try Self.instruction("WORKDIR /srv/app\n").singleValue?.text == "/srv/app")
        #expect(try Self.instruction("EXPOSE 80/tcp 443\n").listValues?.map(\.text) == ["80/tcp", "443"])
        #expect(try Self.instruction("VOLUME [\"/data\"]\n").listValues?.map(\.text) == ["/data"])
        let check = try #require(try Self.instruction("HEALTHCHECK --interval=5s CMD [\"curl\", \"-f\", \"x\"]\n").asHealthcheck)
        #expect(!check.isNone && check.options["interval"]?.text == "5s")
        #expect(check.command?.words.map(\.text) == ["curl", "-f", "x"])
        #expect(try Self.instruction("HEALTHCHECK NONE\n").asHealthcheck?.isNone == true)
        #expect(try Self.instruction("CMD nginx -g 'daemon off;'\n").command?.words.map(\.text) == ["nginx -g 'daemon off;'"])
        #expect(try Self.instruction("ONBUILD COPY . /app\n").onbuildTrigger?.asCopy?.destination?.text == "/app")
        let unknown = try Self.instruction("FORM x\n")
        #expect(unknown.knownKeyword == nil && unknown.keyword == "FORM" && unknown.asFrom == nil)
    }

    @Test func anOnbuildTriggersWordsAreWhereTheyAreWritten() throws {
        let instruction = try Self.instruction("ONBUILD RUN \\\n  make install\n")
        let trigger = try #require(instruction.onbuildTrigger)
        let command = try #require(trigger.argumentWords.first)
        #expect(command.text == "make install")
        #expect(trigger.location(of: command) == SourceLocation(line: 2, column: 3))
    }

    @Test func aJSONElementHasARangeUnlessItHoldsAnEscape() throws {
        let instruction = try Self.instruction("CMD [\"node\", \"a\\\"b\", \"x.js\"]\n")
        let words = try #require(instruction.command).words
        #expect(words.map(\.text) == ["node", "a\"b", "x.js"])
        #expect(words.map(\.range) == [6..<10, nil, 22..<26])
    }

    /// A heredoc knows where its body starts, as the parser read the file's lines (after a
    /// continuation, after an earlier heredoc, with CR LF line ends, under ONBUILD), and where
    /// each offset of its body is.
    @Test func aHeredocKnowsWhereItsBodyStarts() throws {
        let tree = try DockerfileParser.parse(
            "FROM scratch\r\nRUN \\\r\n  <<A cat - <<B\r\na1\r\na2\r\nA\r\nb1\r\nB\r\nONBUILD RUN <<C\nc1\nC\n")
        let run = tree.instructions[1]
        #expect(run.heredocs.map(\.bodyLineOffset) == [2, 5])
        let locate = run.heredocs[0].locator(instructionStartLine: run.startLine)
        #expect(locate(0) == SourceLocation(line: 4, column: 1))
        let two = try #require(Array(run.heredocs[0].content.unicodeScalars).firstIndex(of: "2"))
        #expect(locate(two) == SourceLocation(line: 5, column: 2))
        let onbuild = tree.instructions[2]
        #expect(onbuild.onbuildTrigger?.heredocs.map(\.bodyLineOffset) == [1])
        #expect(
            onbuild.onbuildTrigger?.heredocs[0].locator(instructionStartLine: onbuild.startLine)(1)
                == SourceLocation(line: 10, column: 2))
    }

    /// Each word's place comes from the split that read it, never from a search of the line:
    /// the same text earlier in the line (a mount's `source=build`, a key that is also a value)
    /// does not take its place.
    @Test func aWordIsPlacedWhereTheSplitReadItNotWhereItsTextFirstAppears() throws {
        let run = try Self.instruction("RUN --mount=type=bind,source=build,from=build true\n")
        #expect(run.asRun?.mounts.first?.from?.range == 40..<45)
        let quoted = try Self.instruction("RUN --mount=\"type=bind,from=tools\" true\n")
        #expect(quoted.asRun?.mounts.first?.from?.range == 28..<33)
        let escaped = try Self.instruction("RUN --mount=type=bind,from=to\\ols true\n")
        #expect(escaped.asRun?.mounts.first?.from == InstructionWord(text: "tools", range: nil))
        let env = try Self.instruction("ENV a=b b=a\n")
        #expect(env.asKeyValue?.pairs.map { [$0.key.range, $0.value.range] } == [[4..<5, 6..<7], [8..<9, 10..<11]])
        let legacy = try Self.instruction("ENV a  a b\n")
        #expect(legacy.asKeyValue?.pairs.map { [$0.key.range, $0.value.range] } == [[4..<5, 7..<10]])
        let check = try Self.instruction("HEALTHCHECK --timeout=3s CMD [\"CMD\"]\n")
        #expect(check.argumentWords.map(\.range) == [25..<28, 31..<34])
        #expect(check.flagWord("timeout")?.range == 22..<24)
        let from = try Self.instruction("COPY --from=\"build\" --chown=a\\:b x /y\n")
        #expect(from.flagWord("from") == InstructionWord(text: "build", range: nil))
        #expect(from.flagWord("chown") == InstructionWord(text: "a:b", range: nil))
    }

    /// Over the whole accepted corpus: a word with a range is exactly the text written there.
    @Test(arguments: BuildKitCorpusTests.files(in: "accepted"))
    func everyRangedWordIsTheTextAtItsRange(file: String) throws {
        let source = try BuildKitCorpusTests.source(file)
        let tree = try DockerfileParser.parse(source)
        let body = tree.elements.map(\.text).joined()
        for instruction in tree.instructions + tree.instructions.compactMap(\.onbuildTrigger) {
            let line = instruction.logicalLine.scalars
            var words = instruction.argumentWords
            for name in ["from", "platform", "chown", "chmod", "checksum", "network"] {
                if let word = instruction.flagWord(name) { words.append(word) }
            }
            words += instruction.asRun?.mounts.compactMap(\.from) ?? []
            words += instruction.asKeyValue?.pairs.flatMap { [$0.key, $0.value] } ?? []
            words += instruction.asArg?.declarations.flatMap { [$0.name] + ($0.defaultValue.map { [$0] } ?? []) } ?? []
            for word in words {
                guard let range = word.range else { continue }
                #expect(String(scalars: line[range]) == word.text, "\(file):\(instruction.startLine)")
                if let source = instruction.sourceRange(of: word) {
                    #expect(Self.text(at: source, in: body) == word.text, "\(file):\(instruction.startLine)")
                    let offset = try #require(tree.byteOffset(of: source.start), "\(file):\(instruction.startLine)")
                    let bytes = Array(body.utf8)
                    let wordBytes = Array(word.text.utf8)
                    #expect(Array(bytes[offset..<min(bytes.count, offset + wordBytes.count)]) == wordBytes)
                }
            }
        }
    }

    @Test func anEditReplacesOneWordAndKeepsEveryOtherByte() throws {
        let file = "# c\r\nFROM \\\r\n  alpine:3.20 AS base\r\nRUN echo alpine:3.20\r\n"
        let tree = try DockerfileParser.parse(file)
        try #require(tree.instructions.count >= 1)
        let from = tree.instructions[0]
        let base = try #require(from.asFrom?.base)
        let range = try #require(from.sourceRange(of: base))
        let pinned = "alpine:3.20@sha256:" + String(repeating: "a", count: 64)
        let edited = tree.applying([SourceEdit(range: range, expected: "alpine:3.20", replacement: pinned)])
        #expect(edited.skipped.isEmpty)
        #expect(edited.text == "# c\r\nFROM \\\r\n  \(pinned) AS base\r\nRUN echo alpine:3.20\r\n")
        let stale = SourceEdit(range: range, expected: "debian", replacement: "x")
        #expect(tree.applying([stale]).skipped == [stale])
        #expect(tree.applying([stale]).text == file)
    }
}

extension String {
    fileprivate init(scalars: ArraySlice<Unicode.Scalar>) {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        self = String(view)
    }
}
