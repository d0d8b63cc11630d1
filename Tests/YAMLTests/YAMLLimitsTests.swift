import Testing
import YAML

@Suite struct YAMLLimitsTests {
    @Test(arguments: ["", "\n\n", "# only a comment\n  # and another\n", "\u{FEFF}"])
    func readsNoDocumentFromTextWithoutOne(text: String) throws {
        #expect(try YAMLDocument.parse(text) == nil)
    }

    @Test func readsALoneDocumentMarkerAsNull() throws {
        let root = try #require(try YAMLDocument.parse("---\n"))
        #expect(root.isNull)
    }

    @Test func readsTextUpToTheSizeLimit() throws {
        let comment = "#" + String(repeating: "x", count: YAMLDocument.maximumInputBytes - 1)
        #expect(try YAMLDocument.parse(comment) == nil)
        let expected = YAMLError(
            message: "the text is 16777217 bytes; at most 16777216 (16 MiB) are read", mark: YAMLMark(line: 1, column: 1))
        #expect(throws: expected) { try YAMLDocument.parse(comment + "x") }
    }

    @Test func readsNestingUpToTheDepthLimit() throws {
        let depth = YAMLDocument.maximumDepth
        var node = try #require(
            try YAMLDocument.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        for _ in 1..<depth { node = try #require(node.sequence?.first) }
        #expect(node.sequence?.isEmpty == true)

        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        let expected = YAMLError(
            message: "sequences and mappings nest more than 256 levels deep", mark: YAMLMark(line: 1, column: depth + 1))
        #expect(throws: expected) { try YAMLDocument.parse(tooDeep) }
    }

    /// Hostile text opens far more levels than the limit; reading stops at the first one too many.
    @Test func stopsAtTheFirstLevelTooDeepInBlockStyle() {
        let expected = YAMLError(
            message: "sequences and mappings nest more than 256 levels deep", mark: YAMLMark(line: 1, column: 2 * 256 + 1))
        #expect(throws: expected) { try YAMLDocument.parse(String(repeating: "- ", count: 100_000) + "x\n") }
    }

    /// An alias counts as deep as the node it repeats.
    @Test func countsAnAliasAtTheDepthOfItsNode() {
        let nested = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let text = "a: &deep \(nested)\nb: " + String(repeating: "[", count: 56) + "*deep" + String(repeating: "]", count: 56)
        let expected = YAMLError(
            message: "sequences and mappings nest more than 256 levels deep", mark: YAMLMark(line: 2, column: 60))
        #expect(throws: expected) { try YAMLDocument.parse(text) }
    }

    /// "Billion laughs": nine levels of ten aliases each would expand to 10⁹ nodes from a few
    /// hundred bytes; each alias counts every node it repeats, so reading stops early.
    @Test(.timeLimit(.minutes(1))) func stopsAliasesThatExpandBeyondTheNodeLimit() throws {
        var lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            let aliases = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("l\(level): &l\(level) [\(aliases)]")
        }
        // Line 6 holds l5's aliases of l4 (111,111 nodes each); its ninth, at column 50, passes the limit.
        let expected = YAMLError(
            message: "the document holds more than 1048576 nodes, aliases expanded", mark: YAMLMark(line: 6, column: 50))
        #expect(throws: expected) { try YAMLDocument.parse(lines.joined(separator: "\n")) }
    }

    @Test func readsAliasesWithinTheNodeLimit() throws {
        let text = "base: &b [1, 2, 3]\n" + "uses: [" + Array(repeating: "*b", count: 1000).joined(separator: ", ") + "]\n"
        let root = try #require(try YAMLDocument.parse(text))
        #expect(root["uses"]?.sequence?.count == 1000)
    }
}
