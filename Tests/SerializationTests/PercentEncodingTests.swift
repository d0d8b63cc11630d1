import Serialization
import Testing

/// `PercentEncoding`: RFC 3986 section 2.1 on UTF-8 bytes, both ways.
@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("http://h/echo?q=%22a%26b%22&fields=id|name", "http://h/echo?q=%22a%26b%22&fields=id%7Cname"),
        ("http://h/e%20cho/a|b", "http://h/e%20cho/a%7Cb"),
        ("http://h/echo?id=%41&r={x}", "http://h/echo?id=%41&r=%7Bx%7D"),
        ("http://u:p%40ss@h:8080/a b?x=\"y\"#f^", "http://u:p%40ss@h:8080/a%20b?x=%22y%22#f%5E"),
        ("http://h/100%/%zz/%4", "http://h/100%25/%25zz/%254"),
        ("http://h/caf\u{E9}", "http://h/caf%C3%A9"),
        ("http://[::1]:80/a;b=c?d=e!$'()*+,", "http://[::1]:80/a;b=c?d=e!$'()*+,"),
        // The authority is the host's: a zone id's % and a user name's | stay as written.
        ("http://[fe80::1%eth0]/a|b", "http://[fe80::1%eth0]/a%7Cb"), ("http://a|b@h?c|d", "http://a|b@h?c%7Cd"),
        ("h/a b", "h/a%20b"),
    ])
    func aURLKeepsItsEscapesAndEncodesOnlyWhatMayNotBeRaw(_ written: String, _ sent: String) {
        #expect(PercentEncoding.encodingWhatMustBe(written) == sent)
    }

    @Test func unreservedCharactersStayAndEveryOtherByteIsWrittenInUppercaseHex() {
        #expect(PercentEncoding.encoded("aZ09-._~", keeping: PercentEncoding.isUnreserved) == "aZ09-._~")
        #expect(PercentEncoding.encoded("a b/c:d", keeping: PercentEncoding.isUnreserved) == "a%20b%2Fc%3Ad")
        // One UTF-8 byte each: é is C3 A9, the euro sign E2 82 AC.
        #expect(PercentEncoding.encoded("é€", keeping: PercentEncoding.isUnreserved) == "%C3%A9%E2%82%AC")
        #expect(PercentEncoding.encoded("\u{0}\n", keeping: PercentEncoding.isUnreserved) == "%00%0A")
    }

    @Test func nonASCIIBytesAreEncodedWhateverTheRuleSays() {
        // A combining acute accent after "?": two Characters' worth of bytes, one Character.
        #expect(PercentEncoding.encoded("?\u{301}@", keeping: { _ in true }) == "?%CC%81@")
    }

    @Test func userInfoKeepsSubDelimitersButNotTheColonOrAt() {
        #expect(PercentEncoding.encoded("a!$&'()*+,;=", keeping: PercentEncoding.isUserInfoAllowed) == "a!$&'()*+,;=")
        #expect(PercentEncoding.encoded("alice:secret@x", keeping: PercentEncoding.isUserInfoAllowed) == "alice%3Asecret%40x")
    }

    @Test func decodingTakesEitherCaseAndLeavesAPercentWithoutTwoHexDigits() {
        #expect(PercentEncoding.decodedBytes("%c3%A9") == [0xC3, 0xA9])
        #expect(PercentEncoding.decodedBytes("100%") == Array("100%".utf8))
        #expect(PercentEncoding.decodedBytes("%4") == Array("%4".utf8))
        #expect(PercentEncoding.decodedBytes("%zz%41") == Array("%zzA".utf8))
        #expect(PercentEncoding.decodedBytes("%41") == [0x41])
    }

    @Test func decodingUndoesEncoding() {
        for text in ["", "plain", "a b%c", "é€/?#@:", "\u{7F}\u{0}"] {
            let encoded = PercentEncoding.encoded(text, keeping: PercentEncoding.isUnreserved)
            #expect(PercentEncoding.decodedBytes(Substring(encoded)) == Array(text.utf8))
        }
    }
}
