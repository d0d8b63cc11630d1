import Serialization
import Testing

/// `ControlCharacters`: one rule for every output that shows outside text.
@Suite struct ControlCharactersTests {
    @Test func c0ButTabDELAndC1AreEscapedAsTwoHexDigits() {
        #expect(ControlCharacters.escaped("a\u{1B}[2J\u{07}\u{9B}b\tc\u{7F}\n\u{0}") == "a\\x1B[2J\\x07\\x9Bb\tc\\x7F\\x0A\\x00")
        // Letters outside ASCII past C1 stay: U+00A0 and up are text.
        #expect(ControlCharacters.escaped("caf\u{E9} \u{A0}\u{2028}") == "caf\u{E9} \u{A0}\u{2028}")
        #expect(ControlCharacters.escaped("plain") == "plain")
    }
}
