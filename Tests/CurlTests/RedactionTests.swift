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
        // Everything up to the text's last `@` may be user info: a malformed text shows less.
        #expect(Redaction.malformedURL("https://bob:pw@h.test/p@th") == "https://bob:***@th")
        #expect(Redaction.malformedURL("http://alice:pa@s:s/wd@h.test:1") == "http://alice:***@h.test:1")
        #expect(Redaction.malformedURL("http://tok@en@h.test") == "http://***@h.test")
        #expect(Redaction.malformedURL("https://h.test:99999/") == "https://h.test:99999/")
        // A `://` inside a password is not a scheme's: only a scheme at the start counts.
        #expect(Redaction.malformedURL("user:hunter2://x@127.0.0.1:1") == "user:***@127.0.0.1:1")
        #expect(Redaction.malformedURL("http:/user:hunter2://x@h.test") == "http:/user:***@h.test")
        #expect(Redaction.url("tok://en@h.test") == "tok://***@h.test", "a scheme-like user name shows no more")
        #expect(Redaction.url("http://alice:pa#ss@h.test:1") == "http://alice:pa#ss@h.test:1", "a valid URL's fragment")
    }

    @Test func urlsLoseTheirUserInfoSecretOnly() {
        #expect(Redaction.url("http://bob:127@127.0.0.1:9/127") == "http://bob:***@127.0.0.1:9/127")
        #expect(Redaction.url("https://TOKEN@h.test/") == "https://***@h.test/")
        #expect(Redaction.url("bob:pw@proxy:3128") == "bob:***@proxy:3128")
        #expect(Redaction.url("https://h.test/a@b") == "https://h.test/a@b")
        #expect(
            Redaction.text("see http://u:p@h/x, https://t@h/ and mailto:a@b")
                == "see http://u:***@h/x, https://***@h/ and mailto:a@b")
    }
}
