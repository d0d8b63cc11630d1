import DockerfileSyntax
import Testing

/// A word's value as the builder reads it: the one reading compose, lock and lint share.
@Suite struct WordValueTests {
    @Test func quotesAndEscapesAreRemovedAndReferencesKept() {
        #expect(EscapeCharacter.backslash.unquoted(#""a b"'c'\ d"#) == "a bc d")
        #expect(EscapeCharacter.backslash.unquoted("${NAME:-x}/$OTHER") == "${NAME:-x}/$OTHER")
        #expect(EscapeCharacter.backtick.unquoted("a` b") == "a b")
        #expect(EscapeCharacter.backslash.unquoted("\"open") == "\"open")
    }

    @Test func knownVariablesAreExpandedAndOthersStay() {
        let values = ["TAG": "12", "ARCH": "amd64"]
        #expect(EscapeCharacter.backslash.expanded("debian:${TAG}-$ARCH", values: values) == "debian:12-amd64")
        #expect(EscapeCharacter.backslash.expanded("x:$UNKNOWN", values: values) == "x:$UNKNOWN")
        #expect(
            EscapeCharacter.backslash.expanded("--platform=\"$ARCH\"", values: values, keepingQuotes: true)
                == "--platform=\"amd64\"")
        #expect(EscapeCharacter.backslash.expanded("\"open", values: values) == nil)
    }
}
