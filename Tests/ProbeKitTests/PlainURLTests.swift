import ProbeKit
import Testing

/// The cheap shape check before a run: whatever it takes, the full parse (Foundation, then
/// libcurl's own URL parser) takes too; what it leaves, the full parse judges.
@Suite struct PlainURLTests {
    @Test(arguments: [
        "http://127.0.0.1:9/item/1", "https://api.example.test/health?x=1&y=%20", "http://a-b.test", "https://h.test:443/",
        "http://h.test:0/~user/a;b=c,d", "HTTPS://H.test/", "http://1.2.3.4/", "http://localhost:65535/a/b/",
    ])
    func whatItTakesTheFullParseTakes(url: String) throws {
        if let plain = PlainURL(url) {
            let request = try ProbeRequest(parsing: url)
            #expect(plain.isHTTPS == request.isHTTPS)
            #expect(plain.host.lowercased() == request.host.lowercased())
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:99999/", "http://[::1]/", "http://u:p@h.test/", "http://h.test/#f", "http://h.test/a b",
        "http://1.2.3.999/", "ftp://h.test/", "http://.h.test/", "http://h.test:/", "http://h.test/%zz",
        "http://b\u{FC}cher.test/",
        "http://h.test:123456/", "http://h_t.test/",
    ])
    func leavesTheRestToTheFullParse(url: String) {
        #expect(PlainURL(url) == nil)
    }

    @Test func readsTheSchemeAndHost() throws {
        let plain = try #require(PlainURL("https://api.example.test:8443/health"))
        #expect(plain.isHTTPS)
        #expect(plain.host == "api.example.test")
    }
}
