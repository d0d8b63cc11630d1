import DockerfileSyntax
import StageKit
import Testing

/// Parameter values are data, never code: whatever a `USE` gives (quoted for the Stagefile
/// in any of the ways BuildKit reads), the composed `ARG` word reads back, through the same
/// lexer BuildKit uses, as exactly that value, and adds no instruction.
@Suite struct ParameterValueTests {
    /// Values that have broken quoting code before.
    static let trickyValues: [String] = [
        "", "plain", "two words", "  leading and trailing  ", "a=b", "==", "KEY=VALUE OTHER=x",
        "$HOME", "${HOME}", "${X:-y}", "${X:+set}", "${X?err}", "$", "$$", "a$", "${", "}", "$(id -u)", "`id -u`",
        "'", "''", "it's", "\"", "\"\"", "say \"hi\"", "'\"'", "\"'\"", "\\", "\\\\", "a\\b", "\\$HOME", "\\\"", "\\'",
        "`", "``", "a`b", "`$HOME`", "\t", "a\tb", "ünïcødé", "日本語", "🐳 whale", "e\u{0301}", "\u{00A0}nbsp",
        "nel\u{0085}", "line\u{2028}separator", "vt\u{0B}ff\u{0C}", "#not-a-comment", "# comment", "a # b", "--flag=1",
        "; rm -rf /", "&& echo pwned", "| tee", "*", "?", "[a-z]", "~", "%PATH%", "C:\\Program Files\\app\\x",
        "RUN echo injected", "\" RUN echo injected", "{}", "@", "100%",
    ]

    /// Pieces the generated values are made of.
    static let fragments: [String] = [
        " ", "=", "$", "{", "}", ":-", "HOME", "X", "'", "\"", "\\", "`", "\t", "ü", "🐳", "#", "-", "a", "b", "1",
        "${Y}", "$(", ")", "\u{00A0}", "\u{2028}", ";", "&", "|", "%", "~", ",", ".", "/",
    ]

    /// A deterministic generator (SplitMix64), so a failure names a value that reproduces.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func value() -> String {
            let count = Int(next() % 8)
            return (0..<count).map { _ in fragments[Int(next() % UInt64(fragments.count))] }.joined()
        }
    }

    static func values() -> [String] {
        var generator = Generator(state: 0x5EED_0002)
        return trickyValues + (0..<400).map { _ in generator.value() }
    }

    /// Ways to write a value in the Stagefile, each as BuildKit reads it: in double quotes
    /// (escaping `"`, `$` and the escape character), in single quotes (when the value has
    /// none), and unquoted with every other character escaped.
    static func stagefileWords(for value: String, escape: Unicode.Scalar) -> [String] {
        var doubleQuoted = "\""
        var escaped = ""
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "$" || scalar == escape { doubleQuoted.unicodeScalars.append(escape) }
            doubleQuoted.unicodeScalars.append(scalar)
            if !(scalar.properties.isAlphabetic && scalar.isASCII) { escaped.unicodeScalars.append(escape) }
            escaped.unicodeScalars.append(scalar)
        }
        var words = [doubleQuoted + "\"", escaped]
        if !value.contains("'") { words.append("'" + value + "'") }
        return words
    }

    /// True when BuildKit would expand something in the word: a `$` outside single quotes
    /// that is not escaped.
    static func hasLiveVariableReference(_ word: String, escape: Unicode.Scalar) -> Bool {
        let scalars = Array(word.unicodeScalars)
        var index = 0
        var inSingle = false
        var inDouble = false
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inSingle {
                if scalar == "'" { inSingle = false }
            } else if scalar == escape {
                index += 1
            } else if scalar == "'" && !inDouble {
                inSingle = true
            } else if scalar == "\"" {
                inDouble.toggle()
            } else if scalar == "$" {
                return true
            }
        }
        return false
    }

    static func project(escape: EscapeCharacter) -> MemoryProject {
        let directive = escape == .backtick ? "# escape=`\n" : ""
        return MemoryProject(templates: [
            "base": directive + "# summary: base\nFROM alpine:3.20\n",
            "t": directive + "# summary: t\nARG KEY\nARG OTHER=o\nRUN echo \"$KEY\" \"$OTHER\"\n",
        ])
    }

    @Test(arguments: EscapeCharacter.allCases)
    func everyValueReadsBackExactlyAsOneArgWord(escape: EscapeCharacter) throws {
        let project = Self.project(escape: escape)
        let directive = escape == .backtick ? "# escape=`\n" : ""
        let lexer = ShellWordLexer(escape: escape.scalar)
        var checked = 0
        for value in Self.values() {
            for word in Self.stagefileWords(for: value, escape: escape.scalar) {
                let stagefile = directive + "FROM stage:base\nUSE t KEY=\(word) OTHER=z\n"
                let output = try project.compose(stagefile)
                let tree = try DockerfileParser.parse(output)
                #expect(tree.instructions.count == 4, "\(value.debugDescription) as \(word) added an instruction")
                let bound = tree.instructions.filter { $0.kind == "ARG" && $0.arguments.first?.hasPrefix("KEY=") == true }
                let argument = try #require(bound.count == 1 ? bound[0] : nil, "\(value.debugDescription) as \(word)")
                #expect(argument.arguments.count == 1, "\(value.debugDescription) split into \(argument.arguments)")
                #expect(argument.startLine == argument.endLine, "\(value.debugDescription) spans lines")
                let emitted = String(argument.arguments[0].dropFirst("KEY=".count))
                #expect(try lexer.word(emitted) == value, "\(value.debugDescription) came back changed from \(emitted)")
                #expect(!Self.hasLiveVariableReference(emitted, escape: escape.scalar), "\(emitted) expands a variable")
                let other = tree.instructions.filter { $0.kind == "ARG" }.map { $0.arguments[0] }.last
                #expect(other == "OTHER=z", "\(value.debugDescription) disturbed the next binding")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test(arguments: EscapeCharacter.allCases)
    func quotingAloneRoundTripsThroughTheLexer(escape: EscapeCharacter) throws {
        let lexer = ShellWordLexer(escape: escape.scalar)
        for value in Self.values() where value.unicodeScalars.last != escape.scalar {
            let word = try WordQuoting.quoted(value, escape: escape)
            #expect(try lexer.word(word) == value, "\(value.debugDescription) -> \(word)")
            #expect(try lexer.words(word) == (value.isEmpty ? [] : [value]), "\(word) is not one word")
        }
    }

    // MARK: - Values that cannot be data

    struct RefusedValue: CustomTestStringConvertible, Sendable {
        var label: String
        var line: String
        var location: String
        var words: [String]
        var testDescription: String { label }
    }

    static let refusedValues: [RefusedValue] = [
        RefusedValue(
            label: "carriage return", line: "USE greet GREETING=\"a\rRUN id\"", location: "Stagefile:2:22",
            words: ["newline, carriage return or NUL"]),
        RefusedValue(
            label: "NUL", line: "USE greet GREETING=ab\u{0}c", location: "Stagefile:2:22",
            words: ["newline, carriage return or NUL"]),
        RefusedValue(
            label: "newline in open quote", line: "USE greet GREETING=\"hello\nRUN id\"", location: "Stagefile:2:20",
            words: ["value of GREETING", "matching double-quote"]),
        RefusedValue(
            label: "unbalanced single quote", line: "USE greet GREETING='abc", location: "Stagefile:2:20",
            words: ["value of GREETING", "matching single-quote"]),
    ]

    @Test(arguments: refusedValues)
    func refusesValuesThatCannotStayOnOneLine(_ refused: RefusedValue) throws {
        let project = MemoryProject(templates: [
            "os": "# summary: b\nFROM alpine:3.20\n",
            "greet": "# summary: g\nARG GREETING=hello\nARG OTHER=\nRUN echo \"${GREETING}\"\n",
        ])
        let error = try #require(project.error(composing: "FROM stage:os\n" + refused.line + "\n"))
        #expect(error.description.hasPrefix(refused.location + ": "), "\(error)")
        for word in refused.words { #expect(error.message.contains(word), "\(error)") }
    }

    @Test func quotingRefusesControlCharactersButQuotesATrailingEscape() throws {
        #expect(throws: WordQuoting.Fault.controlCharacter(offset: 1)) { try WordQuoting.quoted("a\nb") }
        #expect(throws: WordQuoting.Fault.controlCharacter(offset: 0)) { try WordQuoting.quoted("\r") }
        #expect(throws: WordQuoting.Fault.controlCharacter(offset: 2)) { try WordQuoting.quoted("ab\u{0}") }
        #expect(try WordQuoting.quoted("a\\") == "'a\\'")
        #expect(try WordQuoting.quoted("a`", escape: .backtick) == "'a`'")
        #expect(try WordQuoting.quoted("a\\", escape: .backtick) == "'a\\'")
    }
}
