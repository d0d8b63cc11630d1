import Foundation
import ProbeKit
import Testing

/// The text forms users type: status lists, header and body expectations, request headers,
/// pins, `--resolve` entries, targets and methods.
@Suite struct InputParsingTests {
    // MARK: - --expect-status

    @Test(arguments: [
        ("200", [200...200], "200"), ("200,301-308", [200...200, 301...308], "200,301-308"),
        (" 204 , 400-499 ", [204...204, 400...499], "204,400-499"), ("100-599", [100...599], "100-599"),
    ])
    func statusListsParse(text: String, ranges: [ClosedRange<Int>], shown: String) throws {
        let list = try StatusList(parsing: text)
        #expect(list.ranges == ranges)
        #expect(list.description == shown)
    }

    @Test(arguments: ["", "200,", "2xx", "99", "600", "200-1000", "308-301", "200-300-400", "+200", "20 0"])
    func badStatusListsAreRefused(text: String) {
        #expect(throws: ProbeInputError.self) { try StatusList(parsing: text) }
    }

    @Test func theDefaultStatusListIs200To399() {
        #expect(Expectations.default.statuses.description == "200-399")
        #expect(StatusList.default.contains(200) && StatusList.default.contains(399))
        #expect(!StatusList.default.contains(199) && !StatusList.default.contains(400))
    }

    // MARK: - --expect-header

    @Test func headerExpectationsCheckPresenceOrExactValueIgnoringNameCase() throws {
        let fields = [(name: "Content-Type", value: "application/json"), (name: "X-A", value: " one ")]
        #expect(try HeaderExpectation(parsing: "content-type").failure(in: fields) == nil)
        #expect(try HeaderExpectation(parsing: "Content-Type=application/json").failure(in: fields) == nil)
        #expect(try HeaderExpectation(parsing: "X-A=one").failure(in: fields) == nil)
        #expect(
            try HeaderExpectation(parsing: "Content-Type=text/html").failure(in: fields)
                == "the header Content-Type is \"application/json\", not \"text/html\"")
        #expect(try HeaderExpectation(parsing: "X-Missing").failure(in: fields) == "the response has no header X-Missing")
        #expect(try HeaderExpectation(parsing: "X-Eq=a=b").value == "a=b")
    }

    @Test(arguments: ["", "=value", "Bad Name", "Name:x=1"])
    func badHeaderExpectationsAreRefused(text: String) {
        #expect(throws: ProbeInputError.self) { try HeaderExpectation(parsing: text) }
    }

    // MARK: - --expect-body

    @Test func bodyPatternsMatchAnywhereInTheBody() throws {
        let pattern = try BodyPattern("\"status\":\\s*\"ok\"")
        #expect(pattern.matches(Array("{\"status\": \"ok\"}".utf8)))
        #expect(!pattern.matches(Array("{\"status\": \"down\"}".utf8)))
        #expect(throws: ProbeInputError.self) { try BodyPattern("(unclosed") }
        let reason = Expectations(body: pattern).failure(fields: [], body: Array("down".utf8), bodyByteCount: 4)
        #expect(reason?.code == .expectationFailed)
        #expect(reason?.message == "the body (4 bytes) does not match the pattern /\"status\":\\s*\"ok\"/")
        // A body longer than the limit (5 bytes seen of 9) is not decided by its first bytes.
        var limited = Expectations(body: pattern)
        limited.bodySizeLimit = 4
        #expect(limited.bodyBytesKept == 5)
        let cut = limited.failure(fields: [], body: Array("down!".utf8), bodyByteCount: 9)
        #expect(cut?.message.hasPrefix("the body is larger than the --body-size-limit of 4 bytes") == true)
        #expect(Expectations().bodyBytesKept == 64 << 10, "without a pattern only a head is kept")
    }

    // MARK: - -H

    @Test func requestHeadersParseLikeCurlAndHideCredentials() throws {
        let accept = try RequestHeader(parsing: "Accept:  application/json ")
        #expect(accept.line == "Accept: application/json")
        let authorization = try RequestHeader(parsing: "Authorization: Bearer tok3n-value")
        #expect(authorization.isCredential)
        #expect(authorization.description == "Authorization: ***")
        #expect(try RequestHeader(parsing: "proxy-authorization: Basic abc").isCredential)
    }

    @Test func badRequestHeadersAreRefusedWithoutEchoingTheValue() {
        for text in ["NoColon", ": value", "Bad Name: x", "X-Evil: a\r\nInjected: b", "Authorization: sec\nret-value"] {
            #expect(throws: ProbeInputError.self) { try RequestHeader(parsing: text) }
            do {
                _ = try RequestHeader(parsing: text)
            } catch {
                #expect(!"\(error)".contains("ret-value") && !"\(error)".contains("Injected"))
            }
        }
    }

    // MARK: - --pinned-public-key, --resolve

    @Test func pinsAreSha256OfThirtyTwoBytes() throws {
        let good = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        #expect(try PublicKeyPin(parsing: good).text == good)
        for bad in [
            "sha1//AAAA", "sha256//", "sha256//not-base64", "sha256//" + Data(repeating: 1, count: 20).base64EncodedString(),
        ] {
            #expect(throws: ProbeInputError.self) { try PublicKeyPin(parsing: bad) }
        }
    }

    @Test func resolveEntriesAreHostPortAddress() throws {
        let entry = try ResolveEntry(parsing: "api.test:443:127.0.0.1,::1")
        #expect(entry.host == "api.test")
        #expect(entry.port == 443)
        #expect(entry.description == "api.test:443:127.0.0.1,[::1]")
        for bad in ["api.test:443", "api.test:0:127.0.0.1", "api.test:x:127.0.0.1", ":443:127.0.0.1", "a:443:not-an-ip"] {
            #expect(throws: ProbeInputError.self) { try ResolveEntry(parsing: bad) }
        }
    }

    // MARK: - Targets and methods

    @Test func targetsMustBeHTTPOrHTTPSWithAHostAndAreShownRedacted() throws {
        let request = try ProbeRequest(parsing: "https://bob:s3cret-pw@api.test:8443/x?y=1")
        #expect(request.target == "https://bob:***@api.test:8443/x?y=1")
        #expect(request.authority == "api.test:8443")
        #expect(try ProbeRequest(parsing: "http://[::1]/").authority == "[::1]:80")
        for bad in [
            "ftp://api.test/", "api.test", "https:///path", "mailto:x@y", "http://api.test:65536/", "http://a.test:99999",
        ] {
            #expect(throws: ProbeInputError.self) { try ProbeRequest(parsing: bad) }
        }
        do {
            _ = try ProbeRequest(parsing: "ftp://bob:s3cret-pw@api.test/")
        } catch {
            #expect("\(error)" == "invalid target \"ftp://bob:***@api.test/\": the URL must start with http:// or https://")
        }
        // No scheme at the start: the `://` is the password's, and none of it shows.
        #expect {
            _ = try ProbeRequest(parsing: "user:hunter2://x@api.test/")
        } throws: { error in
            "\(error)" == "invalid target \"user:***@api.test/\": the URL must start with http:// or https://"
        }
    }

    @Test func anInternationalizedHostNameIsAskedForInItsASCIIForm() {
        #expect {
            try ProbeRequest(parsing: "http://b\u{FC}cher.localhost:8080/")
        } throws: { error in
            "\(error)".contains("write it in its ASCII (punycode) form")
        }
    }

    /// Go's regexp syntax, which RE2 extends with `\C` (any byte): refused, an escaped
    /// backslash before a C taken.
    @Test func patternsAreGosRegexpSyntax() throws {
        #expect(throws: ProbeInputError.self) { try BodyPattern("a\\Cb") }
        #expect(try BodyPattern("a\\\\Cb").matches(Array("a\\Cb".utf8)))
    }

    @Test func methodsAreTokens() throws {
        #expect(try ProbeRequest(parsing: "http://a.test/", method: "PATCH").method == "PATCH")
        #expect(throws: ProbeInputError.self) { try ProbeRequest(parsing: "http://a.test/", method: "GET /x") }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/a b", "http://127.0.0.1:8080/a%20b"),
        ("http://127.0.0.1:8080/?q=%41|x", "http://127.0.0.1:8080/?q=%41%7Cx"),
        ("http://127.0.0.1:8080/q?f={\"a\"}", "http://127.0.0.1:8080/q?f=%7B%22a%22%7D"),
        ("http://127.0.0.1:8080/%zz/\u{FC}", "http://127.0.0.1:8080/%25zz/%C3%BC"),
    ])
    func targetsAreSentWithOnlyWhatMustBeEncodedEncoded(text: String, sent: String) throws {
        // Foundation would "repair" these by encoding the % of %41 as well, sending another URL.
        #expect(try ProbeRequest(parsing: text).target == sent)
    }

    @Test(arguments: ["http://127.0.0.1:8080/anything/%41]", "http://127.0.0.1:8080/#a#b"])
    func targetsThatAreNoURLEvenEncodedAreRefused(text: String) {
        #expect {
            try ProbeRequest(parsing: text)
        } throws: { error in
            "\(error)".contains("may not hold where they are")
        }
    }

    @Test func aTargetWithEscapesKeepsThemAsWritten() throws {
        let request = try ProbeRequest(parsing: "http://127.0.0.1:8080/anything/%41%2F")
        #expect(request.target == "http://127.0.0.1:8080/anything/%41%2F")
    }

    @Test(arguments: [
        ("1048576", 1_048_576), ("512k", 524_288), ("64M", 67_108_864), ("64MiB", 67_108_864), ("10MB", 10_485_760),
        ("1gb", 1_073_741_824), ("0", 0), ("7B", 7),
    ])
    func byteCountsReadAsCurlAndBlackboxWriteThem(text: String, bytes: Int) {
        #expect(ByteCount.parse(text) == bytes)
    }

    @Test(arguments: ["", "M", "1.5M", "-1", "1 M", "1X", "99999999999999999999", "9999999999999T"])
    func refusesWhatIsNoByteCount(text: String) {
        #expect(ByteCount.parse(text) == nil)
    }
}
