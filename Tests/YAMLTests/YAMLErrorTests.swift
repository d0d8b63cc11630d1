import Testing
import YAML

@Suite struct YAMLErrorTests {
    @Test(arguments: [
        ("a: b: c\n", YAMLError(message: "mapping values are not allowed in this context", mark: YAMLMark(line: 1, column: 5))),
        (
            "a:\n  b: 1\n c: 2\n",
            YAMLError(
                message: "did not find expected key (while parsing a block mapping at 1:1)", mark: YAMLMark(line: 3, column: 2))
        ),
        (
            "é: \"abc\n",
            YAMLError(
                message: "found unexpected end of stream (while scanning a quoted scalar at 1:4)",
                mark: YAMLMark(line: 2, column: 1))
        ),
        (
            "a:\n\tb: 1\n",
            YAMLError(
                message: "found character that cannot start any token (while scanning for the next token);"
                    + " the character there is a tab, and YAML indents with spaces only (YAML 1.2.2, section 6.1)",
                mark: YAMLMark(line: 2, column: 1))
        ),
        (
            "- [a, b\n",
            YAMLError(
                message: "did not find expected ',' or ']' (while parsing a flow sequence at 1:3)",
                mark: YAMLMark(line: 2, column: 1))
        ),
    ])
    func reportsLibyamlSyntaxErrorsWithTheirMarks(text: String, error: YAMLError) {
        #expect(throws: error) { try YAMLDocument.parse(text) }
    }

    /// libyaml's reader gives a byte offset only; the mark counts the `é` before it as one column.
    @Test func marksAControlCharacterByLineAndColumn() {
        let expected = YAMLError(message: "control characters are not allowed (U+0007)", mark: YAMLMark(line: 2, column: 6))
        #expect(throws: expected) { try YAMLDocument.parse("a: 1\r\nb: é \u{7}\n") }
    }

    @Test func printsLineColumnAndMessage() {
        let error = YAMLError(message: "mapping values are not allowed in this context", mark: YAMLMark(line: 1, column: 5))
        #expect(error.description == "1:5: mapping values are not allowed in this context")
    }

    @Test func rejectsADuplicateKeyAtItsSecondMark() {
        let expected = YAMLError(message: "duplicate mapping key \"a\", first given at 1:1", mark: YAMLMark(line: 3, column: 1))
        #expect(throws: expected) { try YAMLDocument.parse("a: 1\nb: 2\na: 3\n") }
    }

    @Test func rejectsADuplicateKeyInANestedFlowMapping() {
        let expected = YAMLError(
            message: "duplicate mapping key \"Host\", first given at 3:15", mark: YAMLMark(line: 3, column: 24))
        #expect(throws: expected) { try YAMLDocument.parse("modules:\n  http_2xx:\n    headers: {Host: a, Host: b}\n") }
    }

    @Test func comparesKeysByResolvedTagAndText() throws {
        let expected = YAMLError(message: "duplicate mapping key \"a\", first given at 1:1", mark: YAMLMark(line: 2, column: 1))
        #expect(throws: expected) { try YAMLDocument.parse("a: 1\n\"a\": 2\n") }
        let root = try #require(try YAMLDocument.parse("1: int\n\"1\": str\ntrue: bool\n'true': str\n"))
        #expect(root.mapping?.count == 4)
    }

    @Test func rejectsADuplicateKeyGivenThroughAnAlias() {
        let expected = YAMLError(message: "duplicate mapping key \"k\", first given at 2:7", mark: YAMLMark(line: 2, column: 13))
        #expect(throws: expected) { try YAMLDocument.parse("x: &k k\nmap: {k: 1, *k : 2}\n") }
    }

    @Test func allowsTheSameKeyInDifferentMappings() throws {
        let root = try #require(try YAMLDocument.parse("a: {timeout: 1}\nb: {timeout: 2}\n"))
        #expect(root["b"]?["timeout"]?.scalar == "2")
    }

    @Test(arguments: [
        ("a: 1\n---\nb: 2\n", YAMLMark(line: 2, column: 1)), ("--- a\n--- b\n", YAMLMark(line: 2, column: 1)),
        ("a\n...\n---\n", YAMLMark(line: 3, column: 1)),
    ])
    func rejectsASecondDocument(text: String, mark: YAMLMark) {
        let expected = YAMLError(message: "a second document starts here; only one document is read", mark: mark)
        #expect(throws: expected) { try YAMLDocument.parse(text) }
    }

    @Test func readsOneDocumentWithItsMarkers() throws {
        let root = try #require(try YAMLDocument.parse("%YAML 1.2\n---\na: 1\n...\n"))
        #expect(root["a"]?.scalar == "1")
    }

    @Test func rejectsAnUndefinedAlias() {
        let expected = YAMLError(
            message: "found undefined alias \"*base\": no anchor \"&base\" comes before it", mark: YAMLMark(line: 1, column: 4))
        #expect(throws: expected) { try YAMLDocument.parse("a: *base\nb: &base 1\n") }
    }

    @Test func rejectsAnAliasInsideTheCollectionItNames() {
        let expected = YAMLError(
            message: "alias \"*loop\" is inside the collection it names; recursive data is not read",
            mark: YAMLMark(line: 1, column: 18))
        #expect(throws: expected) { try YAMLDocument.parse("a: &loop [1, [2, *loop]]\n") }
    }
}
