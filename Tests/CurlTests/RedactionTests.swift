import Testing

@testable import Curl

/// The header blocks of every debug log lose the values of credential fields, and only those.
@Suite struct RedactionTests {
    @Test func blocksWithoutCredentialsComeBackUnchanged() {
        let block = "GET / HTTP/1.1\r\nHost: example.test\r\nX-Note: caf\u{E9} \u{1F600}\r\nAuthorized: yes\r\n\r\n"
        #expect(Redaction.headerBlock(block) == block)
        #expect(Redaction.headerBlock("") == "")
        #expect(Redaction.headerBlock("no line end") == "no line end")
    }

    @Test func credentialValuesAreReplacedWhateverTheCaseAndBlanks() {
        let block =
            "CONNECT h:443 HTTP/1.1\r\nProxy-Authorization: Basic dTpw\r\n"
            + "X: 1\r\n authorization\t: Bearer tok\r\nAUTHORIZATION:x\nLast: z"
        #expect(
            Redaction.headerBlock(block)
                == "CONNECT h:443 HTTP/1.1\r\nProxy-Authorization: ***\r\n"
                + "X: 1\r\n authorization\t: ***\r\nAUTHORIZATION: ***\r\nLast: z")
    }

    @Test func aCredentialOnTheLastLineWithoutLineEndIsReplaced() {
        #expect(Redaction.headerBlock("A: b\r\nAuthorization: Basic eA==") == "A: b\r\nAuthorization: ***")
    }

    @Test func malformedURLsLoseWhatMayBeAPassword() {
        #expect(Redaction.malformedURL("http://alice:pa#ss@h.test:1") == "http://alice:***@h.test:1")
        #expect(Redaction.malformedURL("alice:pa/ss@h.test:1") == "alice:***@h.test:1")
        #expect(Redaction.malformedURL("https://bob:pw@h.test/p@th") == "https://bob:***@h.test/p@th")
        #expect(Redaction.malformedURL("https://h.test:99999/") == "https://h.test:99999/")
        #expect(Redaction.url("http://alice:pa#ss@h.test:1") == "http://alice:pa#ss@h.test:1", "a valid URL's fragment")
    }
}
