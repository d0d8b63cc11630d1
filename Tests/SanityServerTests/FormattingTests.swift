import Serialization
import Testing

@testable import SanityServer

/// The small pure pieces: dates, JSON, content negotiation, targets, responses on the wire.
@Suite struct FormattingTests {
    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
    ])
    func formatsIMFFixdate(seconds: Int, expected: String) {
        #expect(HTTPDate.string(secondsSince1970: seconds) == expected)
    }

    @Test func escapesJSONStringsAndKeepsMemberOrder() {
        let value = JSONValue.object([
            ("z", .string("quote\" back\\ nl\n tab\t bell\u{7}")),
            ("a", .array([.integer(1), .bool(true), .null])),
        ])
        #expect(
            value.text(layout: .indentedInliningSmallObjects) + "\n" == """
                {
                  "z": "quote\\" back\\\\ nl\\n tab\\t bell\\u0007",
                  "a": [
                    1,
                    true,
                    null
                  ]
                }

                """)
    }

    @Test(arguments: [
        ([], ResponseFormat.json),
        (["*/*"], .json),
        (["text/plain"], .text),
        (["text/*"], .text),
        (["text/plain;q=0.5, application/json"], .json),
        (["application/json;q=0.1", "text/plain;q=0.2"], .text),
        (["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"], .json),
        (["text/plain;q=0"], .json),
    ])
    func negotiatesFormatFromAccept(accept: [String], expected: ResponseFormat) {
        #expect(ResponseFormat.preferred(byAccept: accept) == expected)
    }

    @Test func splitsTargetIntoPathAndDecodedQuery() {
        let target = RequestTarget("/a%20b?x=1&x=2&flag&e=%E2%82%AC&bad=%zz+ok#frag")
        #expect(target.path == "/a%20b")
        #expect(target.query.map(\.name) == ["x", "x", "flag", "e", "bad"])
        #expect(target.query.map(\.value) == ["1", "2", "", "€", "%zz ok"])
        #expect(RequestTarget("http://example.com?x=1").path == "/")
        #expect(RequestTarget("https://example.com:8443/p/q").path == "/p/q")
    }

    @Test func omitsContentAndLengthWhereHTTPForbidsThem() {
        let response = HTTPResponse.json(204, .object([]))
        let wire = String(
            decoding: response.serialized(date: "D", server: "S", connection: nil, omitsContent: false).bytes, as: UTF8.self)
        #expect(wire == "HTTP/1.1 204 No Content\r\nDate: D\r\nServer: S\r\nContent-Type: application/json\r\n\r\n")
        let head = HTTPResponse.text(200, "ok\n").serialized(date: "D", server: "S", connection: "close", omitsContent: true)
        #expect(String(decoding: head.bytes, as: UTF8.self).hasSuffix("Content-Length: 3\r\nConnection: close\r\n\r\n"))
        #expect(head.contentBytes == 0)
    }

    @Test func validatesConfigurationRanges() {
        #expect(throws: ServerError.self) { try ServerConfiguration(port: 70000).validate() }
        #expect(throws: ServerError.self) { try ServerConfiguration(maxConnections: 0).validate() }
        #expect(throws: ServerError.self) { try ServerConfiguration(name: "has space").validate() }
        #expect(throws: Never.self) { try ServerConfiguration().validate() }
    }
}
