import JSONReader
import Serialization
import Testing

/// What the strict reader takes and refuses: every refusal is text that two common readers
/// (Foundation, jq, Python, Go) would read differently or one of them refuses.
@Suite struct JSONDocumentTests {
    @Test func readsMembersInWrittenOrderWithTheirTypes() throws {
        let value = try JSONDocument.parse(#"{"b": 1, "a": [true, null, 2.5, "x\u00e9"], "c": {}}"#)
        #expect(value.members?.map(\.0) == ["b", "a", "c"])
        #expect(value[member: "b"]?.integerValue == 1)
        #expect(value[member: "a"]?.elements == [.bool(true), .null, .number(2.5), .string("xé")])
        #expect(value[member: "c"]?.members?.isEmpty == true)
        #expect(value[member: "missing"] == nil)
    }

    @Test func refusesAMemberNamedTwiceAtItsLine() throws {
        let text = "{\n  \"images\": {},\n  \"images\": {\"x\": 1}\n}\n"
        let error = try #require(throws: JSONSyntaxError.self) { try JSONDocument.parse(text) }
        #expect(error.line == 3)
        #expect(error.message.contains("duplicate object key"), "\(error)")
    }

    @Test func refusesANameWrittenTwiceInAnotherSpelling() throws {
        // "\u0061" is "a": the same name once decoded, as every reader compares names.
        #expect(throws: JSONSyntaxError.self) { try JSONDocument.parse(#"{"a": 1, "\u0061": 2}"#) }
    }

    @Test(arguments: [
        "{\"a\": \"\\ud800\"}",  // a lone surrogate: Python keeps it, Go and Foundation replace it
        "{\"a\": \"\\u0000\"}",  // NUL in a string: C readers cut the string there
        "{\"a\": 99999999999999999999}",  // beyond 64 bits: Python exact, Go and jq round it
        "{\"a\": 1e400}",  // beyond a double
        "{\"a\": 1} trailing",
        "{\"a\": 1,}",
        "\u{FEFF}{\"a\": 1}",  // a byte order mark (RFC 8259 section 8.1: not to be added)
        "",
    ])
    func refusesTextReadersDisagreeOn(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONDocument.parse(text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONDocument.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func readsAnIntegerOnlyAsAnInteger() throws {
        #expect(try JSONDocument.parse("3").integerValue == 3)
        #expect(try JSONDocument.parse("3.0").integerValue == nil)
    }
}
