import SanityServer
import Testing

@testable import StagebuildCLI

/// The access-log lines `stagebuild serve` writes, checked by eye.
@Suite struct AccessLogFormatTests {
    static func entry(method: String? = "GET", target: String? = "/x?a=1", duration: Double = 1.25) -> AccessLogEntry {
        AccessLogEntry(
            time: 1_700_000_000, method: method, target: target, version: method == nil ? nil : "HTTP/1.1", status: 200,
            bytes: 3, durationMilliseconds: duration, peer: SocketAddress(host: "::1", port: 5555))
    }

    @Test func aTextLineIsPeerRequestStatusBytesAndDuration() {
        #expect(AccessLogFormat.text(Self.entry()) == #"[::1]:5555 "GET /x?a=1 HTTP/1.1" 200 3 1.3ms"#)
        #expect(AccessLogFormat.text(Self.entry(duration: 0.04)) == #"[::1]:5555 "GET /x?a=1 HTTP/1.1" 200 3 0.0ms"#)
        #expect(AccessLogFormat.text(Self.entry(duration: 1234.56)) == #"[::1]:5555 "GET /x?a=1 HTTP/1.1" 200 3 1234.6ms"#)
    }

    @Test func anUnreadRequestHasAnEmptyRequestPart() {
        #expect(AccessLogFormat.text(Self.entry(method: nil, target: nil)) == #"[::1]:5555 "" 200 3 1.3ms"#)
    }

    @Test func controlCharactersAndQuotesNeverReachTheTerminalRaw() {
        let line = AccessLogFormat.text(Self.entry(target: "/a\"b\\c\u{1B}[31m"))
        #expect(line == #"[::1]:5555 "GET /a\"b\\c\x1B[31m HTTP/1.1" 200 3 1.3ms"#)
    }

    @Test func aBatchIsOneLinePerEntry() {
        var lines = ""
        for entry in [Self.entry(), Self.entry(target: "/y")] {
            AccessLogFormat.text(entry, appendingTo: &lines)
            lines += "\n"
        }
        #expect(lines.split(separator: "\n").count == 2)
        #expect(lines.hasSuffix("\"GET /y HTTP/1.1\" 200 3 1.3ms\n"))
    }
}
