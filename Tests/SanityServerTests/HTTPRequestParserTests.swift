import Testing

@testable import SanityServer

/// The parser on its own: bytes in, request or error out, no sockets (RFC 9112).
@Suite struct HTTPRequestParserTests {
    private func parseWhole(
        _ text: String, maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 1024
    ) throws(HTTPRequestError) -> (
        request: HTTPRequest, consumedByteCount: Int
    )? {
        var parser = HTTPRequestParser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        return try parser.parse(Array(text.utf8))
    }

    private func rejection(_ text: String, maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 1024) -> HTTPRequestError? {
        do {
            _ = try parseWhole(text, maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsRequestLineAndFieldsInArrivalOrderWithOriginalCase() throws {
        let text =
            "GET /anything?a=1 HTTP/1.1\r\nHost: example.com\r\nX-Forwarded-For: 10.0.0.1\r\nx-forwarded-for: 10.0.0.2\r\n\r\n"
        let parsed = try #require(try parseWhole(text))
        #expect(parsed.consumedByteCount == text.utf8.count)
        #expect(parsed.request.method == "GET")
        #expect(parsed.request.target == "/anything?a=1")
        #expect(parsed.request.version == .http1_1)
        #expect(
            parsed.request.headerFields == [
                HTTPField(name: "Host", value: "example.com"),
                HTTPField(name: "X-Forwarded-For", value: "10.0.0.1"),
                HTTPField(name: "x-forwarded-for", value: "10.0.0.2"),
            ])
        #expect(parsed.request.values(ofField: "X-FORWARDED-FOR") == ["10.0.0.1", "10.0.0.2"])
    }

    @Test func trimsOptionalWhitespaceAroundFieldValues() throws {
        let parsed = try #require(try parseWhole("GET / HTTP/1.1\r\nHost:\t example.com \t\r\nEmpty:\r\n\r\n"))
        #expect(
            parsed.request.headerFields == [HTTPField(name: "Host", value: "example.com"), HTTPField(name: "Empty", value: "")])
    }

    @Test func acceptsBareLineFeedsAndLeadingEmptyLines() throws {
        let text = "\r\n\nGET / HTTP/1.1\nHost: a\n\n"
        let parsed = try #require(try parseWhole(text))
        #expect(parsed.request.target == "/")
        #expect(parsed.consumedByteCount == text.utf8.count)
    }

    @Test func returnsNothingUntilTheHeadIsComplete() throws {
        var parser = HTTPRequestParser()
        let text = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        var input: [UInt8] = []
        for byte in text.dropLast() {
            input.append(byte)
            #expect(try parser.parse(input) == nil)
        }
        input.append(text[text.count - 1])
        #expect(try parser.parse(input)?.consumedByteCount == text.count)
    }

    @Test func readsPipelinedRequestsOneAfterAnother() throws {
        var parser = HTTPRequestParser()
        var input = Array(
            "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n"
                .utf8)
        var targets: [String] = []
        while let (request, consumed) = try parser.parse(input) {
            targets.append(request.target)
            input.removeFirst(consumed)
        }
        #expect(targets == ["/1", "/2", "/3"])
        #expect(input.isEmpty)
    }

    @Test func readsContentLengthBodyArrivingInPieces() throws {
        var parser = HTTPRequestParser()
        var input = Array("PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel".utf8)
        #expect(try parser.parse(input) == nil)
        input.append(contentsOf: "loEXTRA".utf8)
        let parsed = try #require(try parser.parse(input))
        #expect(parsed.request.body == Array("hello".utf8))
        #expect(parsed.consumedByteCount == input.count - 5)
    }

    @Test func acceptsRepeatedIdenticalContentLength() throws {
        let parsed = try #require(
            try parseWhole("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok"))
        #expect(parsed.request.body == Array("ok".utf8))
    }

    @Test func decodesChunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nChecksum: abc\r\n\r\n"
        let parsed = try #require(try parseWhole(text))
        #expect(parsed.request.body == Array("hello world".utf8))
        #expect(parsed.request.trailerFields == [HTTPField(name: "Checksum", value: "abc")])
        #expect(parsed.consumedByteCount == text.utf8.count)
    }

    @Test func decodesChunkedBodyFedOneByteAtATime() throws {
        var parser = HTTPRequestParser()
        let text = Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip-not, chunked\r\n\r\n".utf8)
        // An unknown coding is refused before any body byte is read.
        #expect(throws: HTTPRequestError.unsupportedTransferCoding("gzip-not")) { try parser.parse(text) }

        parser.reset()
        let valid = Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n".utf8)
        var input: [UInt8] = []
        var result: (request: HTTPRequest, consumedByteCount: Int)?
        for byte in valid {
            #expect(result == nil)
            input.append(byte)
            result = try parser.parse(input)
        }
        #expect(result?.request.body == Array("0123456789".utf8))
    }

    @Test func asksForContinueOnlyWhileTheBodyIsMissing() throws {
        var parser = HTTPRequestParser()
        var input = Array("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8)
        #expect(try parser.parse(input) == nil)
        #expect(parser.expectsContinue)
        input.append(contentsOf: "abc".utf8)
        #expect(try parser.parse(input)?.request.body == Array("abc".utf8))
        #expect(!parser.expectsContinue)
    }

    @Test func keepsConnectionOpenPerVersionAndConnectionField() throws {
        func keeps(_ text: String) throws -> Bool { try #require(try parseWhole(text)).request.keepsConnectionOpen }
        #expect(try keeps("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(try !keeps("GET / HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n"))
        #expect(try !keeps("GET / HTTP/1.0\r\n\r\n"))
        #expect(try keeps("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"))
    }

    @Test func servesHigherMinorVersionsAsHTTP11() throws {
        let parsed = try #require(try parseWhole("GET / HTTP/1.7\r\nHost: a\r\n\r\n"))
        #expect(parsed.request.version == HTTPVersion(major: 1, minor: 7))
    }

    @Test func acceptsAbsoluteAuthorityAndAsteriskForms() throws {
        #expect(try parseWhole("GET http://example.com/x?y=1 HTTP/1.1\r\nHost: example.com\r\n\r\n") != nil)
        #expect(try parseWhole("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n") != nil)
        #expect(try parseWhole("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") != nil)
    }

    /// One malformed request and the status it must get.
    struct Rejection: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var status: Int
        var testDescription: String { "\(name) -> \(status)" }
    }

    static let rejections: [Rejection] = [
        Rejection(name: "lowercase version", text: "GET / http/1.1\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "two spaces", text: "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "missing version", text: "GET /\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "method not a token", text: "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "control byte in target", text: "GET /\u{1}x HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "relative target", text: "GET x HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        // RFC 9110 section 4.2.4 (userinfo is an error) and 4.2.1 (an empty host is invalid); the
        // authority is uri-host [ ":" port ], as Host is. nginx refuses these too.
        Rejection(name: "absolute-form with userinfo", text: "GET http://u@h/ HTTP/1.1\r\nHost: h\r\n\r\n", status: 400),
        Rejection(name: "absolute-form authority @@", text: "GET http://@@/ HTTP/1.1\r\nHost: h\r\n\r\n", status: 400),
        Rejection(name: "absolute-form empty host", text: "GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n", status: 400),
        Rejection(name: "asterisk with GET", text: "GET * HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Rejection(name: "bare CR in field", text: "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", status: 400),
        Rejection(name: "space before colon", text: "GET / HTTP/1.1\r\nHost : a\r\n\r\n", status: 400),
        Rejection(name: "no colon", text: "GET / HTTP/1.1\r\nHost a\r\n\r\n", status: 400),
        Rejection(name: "NUL in value", text: "GET / HTTP/1.1\r\nHost: a\u{0}b\r\n\r\n", status: 400),
        Rejection(name: "obs-fold", text: "GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n", status: 400),
        Rejection(name: "whitespace before first field", text: "GET / HTTP/1.1\r\n Host: a\r\n\r\n", status: 400),
        Rejection(name: "missing Host", text: "GET / HTTP/1.1\r\n\r\n", status: 400),
        Rejection(name: "two Hosts", text: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        // RFC 9112 section 3.2: a Host field with an invalid value is a 400, as nginx answers.
        Rejection(name: "space in Host", text: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", status: 400),
        Rejection(name: "port not digits", text: "GET / HTTP/1.1\r\nHost: a:8x\r\n\r\n", status: 400),
        Rejection(name: "unclosed IP literal", text: "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", status: 400),
        Rejection(name: "bad percent-encoding", text: "GET / HTTP/1.1\r\nHost: a%g1\r\n\r\n", status: 400),
        Rejection(name: "slash in Host", text: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", status: 400),
        Rejection(name: "user info in Host", text: "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n", status: 400),
        Rejection(name: "negative length", text: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", status: 400),
        Rejection(
            name: "different lengths", text: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            status: 400),
        Rejection(
            name: "TE and CL",
            text: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        Rejection(name: "TE in HTTP/1.0", text: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        Rejection(
            name: "chunked twice", text: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
            status: 400),
        Rejection(
            name: "bad chunk size", text: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400),
        Rejection(
            name: "chunk without CRLF",
            text: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n0\r\n\r\n", status: 400),
        Rejection(name: "unknown coding", text: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501),
        Rejection(name: "HTTP/2.0", text: "GET / HTTP/2.0\r\nHost: a\r\n\r\n", status: 505),
        Rejection(name: "HTTP/0.9", text: "GET / HTTP/0.9\r\nHost: a\r\n\r\n", status: 505),
        Rejection(name: "expect other", text: "GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n", status: 417),
        Rejection(name: "body too large", text: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1025\r\n\r\n", status: 413),
        Rejection(
            name: "huge length", text: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            status: 413),
        Rejection(
            name: "chunks too large", text: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n", status: 413
        ),
        Rejection(
            name: "header section too large",
            text: "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 1100) + "\r\n\r\n", status: 431),
        Rejection(name: "target too long", text: "GET /" + String(repeating: "y", count: 1100) + " HTTP/1.1\r\n", status: 414),
    ]

    @Test(arguments: rejections)
    func rejectsWithStatus(_ example: Rejection) {
        #expect(rejection(example.text)?.status == example.status)
    }

    @Test func rejectsObsoleteLineFoldingAsSuch() {
        #expect(rejection("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n\tb\r\n\r\n") == .obsoleteLineFolding)
    }

    @Test func refusesOversizedHeadBeforeItEnds() {
        var parser = HTTPRequestParser(maxHeaderBytes: 64)
        let input = Array(("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 64)).utf8)
        #expect(throws: HTTPRequestError.headerSectionTooLarge(limit: 64)) { try parser.parse(input) }
    }

    @Test func refusesOversizedTrailerSection() {
        let text =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "y", count: 200)
            + "\r\n\r\n"
        #expect(rejection(text, maxHeaderBytes: 128)?.status == 431)
    }
}

/// A line that has arrived is checked at once, before the head or the chunk-size line is
/// complete, as nginx does: found beside nginx (Tests/Oracle/serve_differential.py), where serve
/// waited for the read deadline and nginx answered 400 at once.
@Test(arguments: [
    // RFC 9112 section 2.3: HTTP-version is "HTTP/" DIGIT "." DIGIT.
    "POST /anything HTT@/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r",
    // Section 3: a request line has a version (no HTTP/0.9).
    "GET /anything\r\n",
    // RFC 9110 section 5.5: NUL in a field value.
    "GET /anything HTTP/1.0\r\nConnection: keep\u{0}-alive\r\n\r",
    // RFC 9112 section 5.2: obsolete line folding, also before the folded line's LF (found
    // by the long run of seed 20261201: nginx refuses at the space), and section 2.2:
    // whitespace before the first field.
    "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n",
    "GET /anything HTTP/1.0\r\nConnection: ke%p-alive\r\n \r",
    "GET / HTTP/1.1\r\n\t",
    // Section 5.1: no white space between a field name and its colon, and a name is not empty
    // (found by trying serve as a user would: each waited for the read deadline).
    "GET / HTTP/1.1\r\nHost: a\r\nX Y",
    "GET / HTTP/1.1\r\nHost: a\r\nX :",
    "GET / HTTP/1.1\r\nHost: a\r\n:abc",
    // Section 7.1: chunk-size is 1*HEXDIG (nginx refuses at the x).
    "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0x3",
    // Found beside nginx by CI's random seed 3281594387: a size line that starts with CR.
    "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n\r",
    // Section 3: the request line has no control bytes (DEL here) and starts with a method.
    "GET /anything/\u{7f}\r",
    " /anything\r",
    // Section 3.2: an invalid Host, and RFC 9110 section 5.5: NUL in a line still arriving.
    "GET /anything?a=1 HTTP/1.1\r\nHost:\u{80} h\r\nAccept: */*\r\n",
    "PUT /anything/x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nX-A: b\r\na\u{0}bc",
    // Section 2.2: a bare CR in the trailer section.
    "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\u{b}",
])
func refusesAMalformedLineBeforeTheRestArrives(text: String) {
    var parser = HTTPRequestParser()
    #expect(throws: HTTPRequestError.self) { _ = try parser.parse(Array(text.utf8)) }
}

/// The lines checked early are the ones that have arrived: a valid head fed byte by byte is
/// never refused, and the parts of a valid size line are not either.
@Test func acceptsAValidHeadAndChunkedBodyFedByteByByte() throws {
    let text = Array(
        "POST / HTTP/1.1\r\nHost: h\r\nX: a\r\nTransfer-Encoding: chunked\r\n\r\n1f;a=b\r\n\(String(repeating: "x", count: 31))\r\n0\r\nT: v\r\n\r\n"
            .utf8)
    var parser = HTTPRequestParser()
    var input: [UInt8] = []
    var parsed: (request: HTTPRequest, consumedByteCount: Int)?
    for byte in text {
        #expect(parsed == nil)
        input.append(byte)
        parsed = try parser.parse(input)
    }
    #expect(parsed?.request.body.count == 31)
    #expect(parsed?.consumedByteCount == text.count)
}

/// Host values RFC 9110 section 7.2 allows: names, IPv4 and IPv6 literals, ports, empty.
@Test(arguments: ["example.com", "a:8080", "127.0.0.1:1", "[::1]", "[::1]:443", "", "xn--bcher-kva.example", "a%2Db", "a:"])
func acceptsEveryValidHostForm(host: String) throws {
    var parser = HTTPRequestParser()
    let parsed = try parser.parse(Array("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
    #expect(parsed?.request.values(ofField: "Host") == [host])
}

/// Bytes that cannot start or continue a request are refused as soon as they arrive, not at the
/// read deadline: a TLS ClientHello sent to a plain port, a bare CR.
@Test(arguments: [[0x16, 0x03, 0x01, 0x02, 0x00, 0x01], Array("GET / HTTP/1.1\rHost: a".utf8), Array("GE(T / HTTP/1.1".utf8)])
func refusesWhatCannotBeARequestAtOnce(bytes: [UInt8]) {
    var parser = HTTPRequestParser()
    #expect(throws: HTTPRequestError.self) { _ = try parser.parse(bytes) }
}

/// A method byte that is not a token is refused when it arrives, also in a later piece of the
/// input than the method's first bytes (found by the `http-request` fuzz target: `PTOS` then
/// `\u{A6}…` was refused only when both came at once).
@Test func refusesANonTokenMethodByteThatArrivesLater() throws {
    var parser = HTTPRequestParser()
    let bytes: [UInt8] = Array("PTOS".utf8) + [0xA6, 0xDF] + Array("ost HT".utf8)
    #expect(try parser.parse(Array(bytes[..<4])) == nil)
    #expect(throws: HTTPRequestError.self) { _ = try parser.parse(bytes) }
}

/// A bare CR is refused also when the input so far ended right after it (found by the
/// `http-request` fuzz target: the CR was never looked at again once its next byte came).
@Test func refusesABareCRSplitFromItsNextByte() throws {
    var parser = HTTPRequestParser()
    let bytes = Array("POST / HTTP/1.1\r\nHost: a\r\u{0}\r\n\r\n".utf8)
    let cr = bytes.count - 6
    #expect(try parser.parse(Array(bytes[...cr])) == nil)
    #expect(throws: HTTPRequestError.self) { _ = try parser.parse(bytes) }
}
