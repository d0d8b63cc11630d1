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

    /// One rule for what a secret header is (`probe-trace-shows-cookies-and-api-keys`).
    @Test(arguments: [
        ("Cookie", true), ("Set-Cookie", true), ("X-Api-Key", true), ("Api-Key", true), ("X-Auth-Token", true),
        ("Private-Token", true), ("X-Amz-Security-Token", true), ("X-Registry-Auth", true), ("X-Session-Id", true),
        ("x_client_secret", true), ("Proxy-Authorization", true), ("authorization", true),
        ("WWW-Authenticate", false), ("Proxy-Authenticate", false), ("Keep-Alive", false), ("X-Keyboard", false),
        ("Content-Type", false), ("Authorized", false),
    ])
    func secretHeaderNames(name: String, isSecret: Bool) {
        #expect(Redaction.isSecretHeaderName(name) == isSecret)
        let line = "\(name): value-of-it\r\n"
        #expect((Redaction.headerBlock(line) == "\(name): ***\r\n") == isSecret)
    }

    @Test func secretQueryValuesAreHiddenInURLsAndRequestLines() {
        #expect(
            Redaction.url("https://bucket.test/o?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc123&X-Amz-Expires=60")
                == "https://bucket.test/o?X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Expires=60")
        #expect(Redaction.url("https://a.test/?sv=2022&sig=xyz%3D#frag") == "https://a.test/?sv=2022&sig=***#frag")
        #expect(Redaction.url("https://a.test/cb?code=abc&state=s1") == "https://a.test/cb?code=***&state=s1")
        #expect(Redaction.url("https://a.test/?api_key=k&page=2") == "https://a.test/?api_key=***&page=2")
        #expect(Redaction.url("https://a.test/?keyword=k&monkey=1") == "https://a.test/?keyword=k&monkey=1")
        #expect(
            Redaction.text("> GET /search?q=1&access_token=TOKEN HTTP/1.1\r\n")
                == "> GET /search?q=1&access_token=*** HTTP/1.1\r\n")
    }

    /// `probe-redaction-nested-url-inconsistent`: a URL's own text hides what a nested one holds.
    @Test func aURLNestedInAURLHidesItsUserInfoToo() {
        let target = "http://127.0.0.1:8/redirect?to=http://svc:NESTED-PASSWORD@127.0.0.2:8/echo"
        #expect(Redaction.url(target) == "http://127.0.0.1:8/redirect?to=http://svc:***@127.0.0.2:8/echo")
        #expect(Redaction.text("GET \(target)") == "GET http://127.0.0.1:8/redirect?to=http://svc:***@127.0.0.2:8/echo")
        #expect(
            Redaction.url("http://u:p@a.test/?next=https://TOKEN@b.test/")
                == "http://u:***@a.test/?next=https://***@b.test/")
    }

    /// A nested URL is usually percent-encoded; encoded names and the fragment (OAuth's
    /// implicit flow) hold tokens too.
    @Test func encodedNestedURLsEncodedNamesAndFragmentsHideTheirSecrets() {
        #expect(
            Redaction.url("http://a.test/?next=http%3A%2F%2Fsvc%3AENCPW%40h%2F%3Faccess_token%3DTOK%26a%3Db&p=1")
                == "http://a.test/?next=http%3A%2F%2Fsvc%3A***%40h%2F%3Faccess_token%3D***%26a%3Db&p=1")
        #expect(
            Redaction.url("http://a.test/?to=http%253A%252F%252Fu%253AP2%2540h")
                == "http://a.test/?to=http%253A%252F%252Fu%253A***%2540h")
        #expect(Redaction.url("http://a.test/?access%5Ftoken=T&x=1") == "http://a.test/?access%5Ftoken=***&x=1")
        #expect(Redaction.url("http://a.test/cb#access_token=T&state=s") == "http://a.test/cb#access_token=***&state=s")
        // A value with a stray % and no secret comes back as written.
        #expect(Redaction.url("http://a.test/?q=100%&r=http%3A%2F%2Fh%2F") == "http://a.test/?q=100%&r=http%3A%2F%2Fh%2F")
    }

    /// A target line that is no URL (a space in it) still hides its query's tokens.
    @Test func aMalformedURLHidesItsQueryTokens() {
        #expect(
            Redaction.malformedURL("http://h/?access_token=SECRET&x=a b") == "http://h/?access_token=***&x=a b")
    }

    /// Only a field name (a token) before a colon is a header: a sentence naming one is not.
    @Test func aSentenceNamingACredentialFieldIsNotAHeader() {
        let sentence = "the header X-Auth-Token has another value (neither is shown: it is a credential)"
        #expect(Redaction.text(sentence) == sentence)
        #expect(Redaction.text("X-Auth-Token: abc") == "X-Auth-Token: ***")
    }
}
