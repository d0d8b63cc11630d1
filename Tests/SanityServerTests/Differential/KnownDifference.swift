import Foundation
import Serialization
import Testing

@testable import SanityServer

/// A documented, deliberate difference between serve and nginx 1.22 (each is a section of
/// `Tests/Oracle/README.md`, with the RFC text that allows or decides it).
///
/// Most are a *repair*: the request rewritten the way nginx reads it (a field it ignores
/// removed, a value it does not check made valid, or a request it refuses replaced by one serve
/// refuses too). A disagreement is a documented difference when serve, sent the repaired
/// request, answers as nginx answered the original. The others are a *verdict*: the same answers
/// but for one that the rule names (nginx's HTTP/0.9 reply, the status class of a refusal, a
/// head within the band where the two count the size limit differently).
struct KnownDifference: Sendable, CustomTestStringConvertible {
    enum Rule: Sendable {
        /// Rewrites one request; `false` when the difference does not apply to it.
        case repair(@Sendable (inout RawMessage) -> Bool)
        /// Whether the answers differ only as the difference says, given the requests and both
        /// servers' classes.
        case verdict(@Sendable (_ messages: [RawMessage], _ nginx: [String], _ serve: [String]) -> Bool)
    }

    var name: String
    var rule: Rule
    /// A request that shows the difference, and nginx 1.22.1's class for it.
    var example: String
    var nginxClass: String

    var testDescription: String { name }

    static let maxHeaderBytes = ServerConfiguration().maxHeaderBytes

    /// Every documented difference, repairs first, in the order `Tests/Oracle/README.md` lists them.
    static let all: [KnownDifference] = [
        KnownDifference(
            name: "unknown-expectation", rule: .repair(removeUnknownExpectations),
            example: "GET / HTTP/1.1\r\nHost: h\r\nExpect: foo\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "control-in-value", rule: .repair(replaceControlsInValues),
            example: "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{1}b\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "lenient-host", rule: .repair(replaceInvalidHost),
            example: "GET / HTTP/1.1\r\nHost: h:8x\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "ignored-field-name", rule: .repair(removeIgnoredFieldLines),
            example: "GET / HTTP/1.1\r\nHost: h\r\nX(: 1\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "obs-text-in-target", rule: .repair(replaceHighBytesInTarget),
            example: "GET /\u{e9} HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "request-line-spaces", rule: .repair(collapseRequestLineSpaces),
            example: "GET  / HTTP/1.1 \r\nHost: h\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "multi-digit-version", rule: .repair(readVersionAsNginx),
            example: "GET / HTTP/1.10\r\nHost: h\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "leading-bare-cr", rule: .repair(removeLeadingBareCR),
            example: "\rGET / HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "field-line-without-colon", rule: .repair(removeLinesWithoutColon),
            example: "GET / HTTP/1.1\r\nHost: h\r\nX-A\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "repeated-cr-before-lf", rule: .repair(removeRepeatedCarriageReturns),
            example: "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\r\r\n\r\n", nginxClass: "2xx"),
        KnownDifference(
            name: "connection-option-substring", rule: .repair(readConnectionAsNginx),
            example: "GET / HTTP/1.0\r\nConnection: xkeep-alive\r\n\r\nGET / HTTP/1.0\r\n\r\n", nginxClass: "2xx 2xx"
        ),
        KnownDifference(
            name: "chunk-extensions-and-trailers", rule: .repair(reencodeChunkedBody),
            example: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;\u{0}\r\na\r\n0\r\nX y\r\n\r\n",
            nginxClass: "2xx"),
        KnownDifference(
            name: "transfer-encoding-not-exactly-chunked", rule: .repair(refuseCodingListAsNginx),
            example: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , chunked\r\n\r\n0\r\n\r\n", nginxClass: "5xx"),
        KnownDifference(
            name: "transfer-encoding-twice", rule: .repair(refuseSecondTransferEncoding),
            example: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: \r\n\r\n0\r\n\r\n",
            nginxClass: "4xx"),
        KnownDifference(
            name: "identical-content-lengths", rule: .repair(refuseIdenticalContentLengths),
            example: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 1\r\n\r\na", nginxClass: "4xx"),
        KnownDifference(
            name: "method-characters", rule: .repair(refuseMethodsNginxRefuses),
            example: "get / HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "asterisk-form", rule: .repair(refuseAsteriskForm),
            example: "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "dot-segments-above-root", rule: .repair(refuseDotSegmentsAboveRoot),
            example: "GET /../x HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "empty-or-tab-host", rule: .repair(refuseEmptyOrTabHost),
            example: "GET / HTTP/1.1\r\nHost:\th\t\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "invalid-percent-encoding-in-path", rule: .repair(refuseInvalidPercentEncoding),
            example: "GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "consecutive-dots-in-host", rule: .repair(refuseConsecutiveDotsInHost),
            example: "GET / HTTP/1.1\r\nHost: a..b\r\n\r\n", nginxClass: "4xx"),
        KnownDifference(
            name: "tab-around-content-length", rule: .repair(refuseTabAroundContentLength),
            example: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\t1\r\n\r\na", nginxClass: "4xx"),
        KnownDifference(
            name: "http-0.9", rule: .verdict(isHTTP09Reply),
            example: "GET /\r\n", nginxClass: "other"),
        KnownDifference(
            name: "refusal-status", rule: .verdict(isRefusalStatusOnly),
            example: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", nginxClass: "5xx"),
        KnownDifference(
            name: "head-size-band", rule: .verdict(isInHeadSizeBand),
            example: "GET /" + String(repeating: "a", count: maxHeaderBytes - 30) + " HTTP/1.1\r\nHost: h\r\n\r\n",
            nginxClass: "4xx"),
    ]

    // -----------------------------------------------------------------------------------------
    // Repairs: serve stricter than nginx (nginx ignores or accepts what serve refuses).

    /// nginx acts on `Expect: 100-continue` only and ignores any other expectation.
    static func removeUnknownExpectations(_ message: inout RawMessage) -> Bool {
        let unknown = message.fields(named: "expect").filter { index in
            message.field(index).map { String(decoding: $0.value, as: UTF8.self).lowercased() != "100-continue" } ?? false
        }
        for index in unknown.reversed() { message.lines.remove(at: index) }
        return !unknown.isEmpty
    }

    /// nginx keeps control characters other than NUL, CR and LF in field values.
    static func replaceControlsInValues(_ message: inout RawMessage) -> Bool {
        var changed = false
        for index in message.fieldIndices {
            let content = message.lines[index].content
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { continue }
            for position in (colon + 1)..<content.count where isControl(content[position]) {
                message.lines[index].content[position] = UInt8(ascii: "x")
                changed = true
            }
        }
        return changed
    }

    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x00 && byte != 0x0D) || byte == 0x7F
    }

    /// nginx accepts a Host that is not `uri-host [ ":" port ]`: a port that is not digits, `?`,
    /// `%zz`, bytes above 0x7F, an unclosed `[`.
    static func replaceInvalidHost(_ message: inout RawMessage) -> Bool {
        let hosts = message.fields(named: "host")
        guard hosts.count == 1, let field = message.field(hosts[0]), !field.value.isEmpty,
            !field.value.contains(0x09),
            !HTTPRequestParser.isValidHost(String(decoding: field.value, as: UTF8.self))
                || field.value.contains(where: { $0 >= 0x80 })
        else { return false }
        message.lines[hosts[0]].content = Array("Host: h".utf8)
        return true
    }

    /// nginx ignores a field line whose name has a byte outside `tchar` that is not a control,
    /// space or DEL (`ignore_invalid_headers`); serve refuses it.
    static func removeIgnoredFieldLines(_ message: inout RawMessage) -> Bool {
        let ignored = message.fieldIndices.filter { index in
            guard let name = message.field(index)?.name, !name.isEmpty else { return false }
            return name.contains { !HTTPToken.isTokenCharacter($0) && $0 > 0x20 && $0 != 0x7F }
                && !name.contains { $0 <= 0x20 || $0 == 0x7F }
        }
        for index in ignored.reversed() { message.lines.remove(at: index) }
        return !ignored.isEmpty
    }

    /// nginx accepts bytes above 0x7F in the request target.
    static func replaceHighBytesInTarget(_ message: inout RawMessage) -> Bool {
        guard !message.lines.isEmpty, message.requestLine.contains(where: { $0 >= 0x80 }) else { return false }
        let words = message.words
        guard words.count >= 2, words[1].contains(where: { $0 >= 0x80 }) else { return false }
        for position in words[1].indices where message.lines[0].content[position] >= 0x80 {
            message.lines[0].content[position] = UInt8(ascii: "x")
        }
        return true
    }

    /// nginx splits the request line at runs of spaces and accepts spaces after the version.
    static func collapseRequestLineSpaces(_ message: inout RawMessage) -> Bool {
        guard !message.lines.isEmpty else { return false }
        let line = message.requestLine
        let words = message.words
        let collapsed = Array(words.map(Array.init).joined(separator: [0x20]))
        guard words.count == 3, line.first != 0x20, collapsed != line else { return false }
        message.lines[0].content = collapsed
        return true
    }

    /// nginx reads `HTTP/1.10`, `HTTP/01.1` and `HTTP/1.01` as numbers: 1.10 is served as 1.1,
    /// a major version above 1 gets 505, and major version 0 a 400.
    static func readVersionAsNginx(_ message: inout RawMessage) -> Bool {
        let words = message.words
        guard words.count == 3 else { return false }
        let version = String(decoding: words[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/"), version.count != 8 else { return false }
        let numbers = version.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false)
        let isNumber = { (text: Substring) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        // A major version above 1 is refused (505) as soon as its digits are read, dot or not.
        if let first = numbers.first, isNumber(first), let major = Int(first.prefix(9)), major > 1,
            version != "HTTP/2.0"
                || numbers.count != 2
        {
            message.lines[0].content = Array(words[0]) + [0x20] + Array(words[1]) + [0x20] + Array("HTTP/2.0".utf8)
            return true
        }
        guard numbers.count == 2, let major = Int(numbers[0]), let minor = Int(numbers[1]),
            numbers.allSatisfy(isNumber)
        else { return false }
        let replacement: String
        switch major {
        case 0:
            message.refuse()
            return true
        case 1: replacement = minor == 0 ? "HTTP/1.0" : "HTTP/1.1"
        default: replacement = "HTTP/2.0"
        }
        message.lines[0].content = Array(words[0]) + [0x20] + Array(words[1]) + [0x20] + Array(replacement.utf8)
        return true
    }

    /// nginx skips every CR and LF before the request line, a bare CR too.
    static func removeLeadingBareCR(_ message: inout RawMessage) -> Bool {
        let leading = message.leading
        var kept: [UInt8] = []
        for (index, byte) in leading.enumerated() where byte != 0x0D || (index + 1 < leading.count && leading[index + 1] == 0x0A)
        {
            kept.append(byte)
        }
        guard kept != leading else { return false }
        message.leading = kept
        return true
    }

    /// nginx reads a line of name characters without a colon as a field with an empty value (or
    /// ignores it, when the name has other bytes); serve refuses it.
    static func removeLinesWithoutColon(_ message: inout RawMessage) -> Bool {
        let lines = message.fieldIndices.filter { index in
            let content = message.lines[index].content
            return !content.isEmpty && !content.contains(UInt8(ascii: ":"))
                && !content.contains { $0 <= 0x20 || $0 == 0x7F } && !message.lines[index].ending.isEmpty
        }
        for index in lines.reversed() { message.lines.remove(at: index) }
        return !lines.isEmpty
    }

    /// nginx takes any number of CRs before the LF that ends a head line; serve refuses a CR
    /// that is not followed by LF. So a head that stops after such CRs, its LF not sent yet,
    /// is one nginx waits on: the repair keeps one CR there, which serve waits on too.
    static func removeRepeatedCarriageReturns(_ message: inout RawMessage) -> Bool {
        var changed = false
        for index in message.lines.indices {
            let ending = message.lines[index].ending
            let unfinished = ending.isEmpty && index == message.lines.count - 1
            guard ending == [0x0D, 0x0A] || unfinished else { continue }
            let keep = unfinished ? 1 : 0
            while message.lines[index].content.count >= 1 + keep,
                message.lines[index].content.suffix(1 + keep).allSatisfy({ $0 == 0x0D })
            {
                message.lines[index].content.removeLast()
                changed = true
            }
        }
        return changed
    }

    /// nginx finds `close` and `keep-alive` anywhere in a Connection value (`keep-alive\u{1}`);
    /// serve compares the list's options (RFC 9110 section 7.6.1).
    static func readConnectionAsNginx(_ message: inout RawMessage) -> Bool {
        var changed = false
        for index in message.fields(named: "connection") {
            guard let value = message.field(index).map({ String(decoding: $0.value, as: UTF8.self).lowercased() }) else {
                continue
            }
            let options = value.split(separator: ",").map { $0.trimmingCharacters(in: .init(charactersIn: " \t")) }
            for option in ["close", "keep-alive"] where value.contains(option) && !options.contains(option) {
                message.lines[index].content = Array("Connection: \(option)".utf8)
                changed = true
            }
        }
        return changed
    }

    /// nginx skips the bytes of chunk extensions and of trailer lines without checking them: the
    /// body re-encoded without either, when nginx's reading of it succeeds.
    static func reencodeChunkedBody(_ message: inout RawMessage) -> Bool {
        guard message.isChunked, message.lines.last?.content.isEmpty == true, message.lines.count > 1 else { return false }
        let body = message.rest
        var index = 0
        var clean: [UInt8] = []
        // Reads a line the way nginx does: a CR must be followed by LF.
        func line() -> ArraySlice<UInt8>? {
            guard let lineFeed = body[index...].firstIndex(of: 0x0A) else { return nil }
            var content = body[index..<lineFeed]
            if content.last == 0x0D { content = content.dropLast() }
            guard !content.contains(0x0D) else { return nil }
            index = lineFeed + 1
            return content
        }
        // What has arrived, cleaned: nginx and serve both wait for the rest.
        func arrived(_ clean: [UInt8]) -> Bool {
            guard clean != body else { return false }
            message.rest = clean
            return true
        }
        while true {
            guard let sizeLine = line() else {
                return arrived(clean + body[index...].prefix { HexDigit.value(of: $0) != nil }.prefix(15))
            }
            let digits = sizeLine.prefix { HexDigit.value(of: $0) != nil }
            guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
            else { return false }
            if let next = sizeLine.dropFirst(digits.count).first, ![UInt8(ascii: ";"), 0x20, 0x09].contains(next) {
                return false
            }
            clean += Array(String(size, radix: 16).utf8) + [0x0D, 0x0A]
            if size == 0 { break }
            guard body.count - index >= size else { return arrived(clean + body[index...]) }
            clean += body[index..<(index + size)]
            index += size
            if index == body.count || (body[index] == 0x0D && index + 1 == body.count) { return arrived(clean) }
            guard let end = line(), end.isEmpty else { return false }
            clean += [0x0D, 0x0A]
        }
        while true {
            guard let trailer = line() else { return arrived(clean) }
            if trailer.isEmpty { break }
        }
        clean += [0x0D, 0x0A]
        let repaired = clean + body[index...]
        guard repaired != body else { return false }
        message.rest = Array(repaired)
        return true
    }

    // -----------------------------------------------------------------------------------------
    // Repairs: nginx stricter than serve (nginx refuses what serve reads).

    /// nginx takes a Transfer-Encoding only when its value, spaces trimmed, is exactly `chunked`:
    /// empty list elements (`, chunked`, `chunked,`) and HTAB around it get 501 there.
    static func refuseCodingListAsNginx(_ message: inout RawMessage) -> Bool {
        let lines = message.fields(named: "transfer-encoding")
        guard message.isChunked, lines.count == 1 else { return false }
        let content = message.lines[lines[0]].content
        let raw = content[(content.firstIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? content.endIndex)...]
        let spaceTrimmed = String(decoding: raw.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed(), as: UTF8.self)
        guard spaceTrimmed.lowercased() != "chunked" else { return false }
        for index in message.fields(named: "transfer-encoding") {
            message.lines[index].content = Array("Transfer-Encoding: x-nginx-refuses".utf8)
        }
        for index in message.fields(named: "content-length").reversed() { message.lines.remove(at: index) }
        return true
    }

    /// nginx refuses a second Transfer-Encoding line (400); serve reads the lines as one list.
    static func refuseSecondTransferEncoding(_ message: inout RawMessage) -> Bool {
        guard message.fields(named: "transfer-encoding").count > 1 else { return false }
        message.refuse()
        return true
    }

    /// nginx refuses a second Content-Length line as soon as it arrives, whatever the values and
    /// before the head ends (a field it keeps once), and a list even of one repeated number; serve
    /// reads identical values as one length and decides at the end of the head.
    static func refuseIdenticalContentLengths(_ message: inout RawMessage) -> Bool {
        let lines = message.values(named: "content-length")
        let values = lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .init(charactersIn: " \t")) }
        let identicalList =
            values.count > 1 && Set(values).count == 1
            && values.first.map { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } } == true
        guard lines.count > 1 || identicalList else { return false }
        message.refuse()
        return true
    }

    /// nginx takes only `A-Z`, `_` and `-` in a method; `get`, `POSt` or `M.X` are 400 there.
    /// It refuses TRACE (405) and CONNECT (400) too.
    static func refuseMethodsNginxRefuses(_ message: inout RawMessage) -> Bool {
        guard let method = message.words.first, message.requestLine.first != 0x20, method.allSatisfy(HTTPToken.isTokenCharacter)
        else { return false }
        let nginxMethod = method.allSatisfy { (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        let text = String(decoding: method, as: UTF8.self)
        guard !nginxMethod || text == "TRACE" || text == "CONNECT" else { return false }
        message.refuse()
        return true
    }

    /// nginx decodes the path and refuses a `%` not followed by two hex digits there (the query
    /// is not decoded); serve shows the path as sent.
    static func refuseInvalidPercentEncoding(_ message: inout RawMessage) -> Bool {
        let words = message.words
        guard words.count >= 2 else { return false }
        var path = Array(words[1].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        if let scheme = path.firstRange(of: Array("://".utf8)) {
            path = Array(path[scheme.upperBound...].drop { $0 != UInt8(ascii: "/") })
        }
        for (index, byte) in path.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < path.count, HexDigit.value(of: path[index + 1]) != nil, HexDigit.value(of: path[index + 2]) != nil
            else {
                message.refuse()
                return true
            }
        }
        return false
    }

    /// nginx refuses a Host with two dots in a row.
    static func refuseConsecutiveDotsInHost(_ message: inout RawMessage) -> Bool {
        let hosts = message.fields(named: "host")
        guard hosts.count == 1, let value = message.field(hosts[0])?.value, value.firstRange(of: Array("..".utf8)) != nil
        else { return false }
        message.refuse()
        return true
    }

    /// nginx refuses the asterisk-form target `*`.
    static func refuseAsteriskForm(_ message: inout RawMessage) -> Bool {
        let words = message.words
        guard words.count >= 2, words[1].elementsEqual("*".utf8) else { return false }
        message.refuse()
        return true
    }

    /// nginx refuses a path whose dot-segments climb above the root (`/../x`, `/a/%2e%2e/..`).
    static func refuseDotSegmentsAboveRoot(_ message: inout RawMessage) -> Bool {
        let words = message.words
        guard words.count >= 2, words[1].first == UInt8(ascii: "/") else { return false }
        let path = String(decoding: words[1], as: UTF8.self).split(
            separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        var depth = 0
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let decoded = segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
            if decoded == ".." {
                depth -= 1
                if depth < 0 {
                    message.refuse()
                    return true
                }
            } else if decoded != "." && !decoded.isEmpty {
                depth += 1
            }
        }
        return false
    }

    /// nginx refuses an empty Host, and keeps HTAB around a value (it trims spaces only), so
    /// `Host:\th` is invalid there.
    static func refuseEmptyOrTabHost(_ message: inout RawMessage) -> Bool {
        let hosts = message.fields(named: "host")
        guard hosts.count == 1 else { return false }
        let content = message.lines[hosts[0]].content
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let raw = content[(colon + 1)...]
        let spaceTrimmed = raw.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }
        guard spaceTrimmed.isEmpty || spaceTrimmed.first == 0x09 || spaceTrimmed.last == 0x09 else { return false }
        message.refuse()
        return true
    }

    /// nginx keeps HTAB around a Content-Length value, which then is no number (400); serve
    /// trims it as OWS (RFC 9110 section 5.6.3).
    static func refuseTabAroundContentLength(_ message: inout RawMessage) -> Bool {
        let tabbed = message.fields(named: "content-length").contains { index in
            let content = message.lines[index].content
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return false }
            let spaceTrimmed = content[(colon + 1)...].drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }
            return spaceTrimmed.first == 0x09 || spaceTrimmed.last == 0x09
        }
        guard tabbed else { return false }
        message.refuse()
        return true
    }

    // -----------------------------------------------------------------------------------------
    // Verdicts.

    /// The first answer that differs, with both classes, and the request it answers.
    private static func firstDifference(
        _ messages: [RawMessage], _ nginx: [String], _ serve: [String]
    ) -> (index: Int, nginx: String, serve: String, message: RawMessage?)? {
        let count = max(nginx.count, serve.count)
        for index in 0..<count {
            let left = index < nginx.count ? nginx[index] : ""
            let right = index < serve.count ? serve[index] : ""
            if left != right { return (index, left, right, index < messages.count ? messages[index] : nil) }
        }
        return nil
    }

    /// nginx answers a request line without a version as HTTP/0.9 (a body without a status
    /// line), and refuses some (`GET http://h` then CR) at the CR, before the byte after it
    /// arrives; serve refuses it with 400 at its LF.
    static func isHTTP09Reply(_ messages: [RawMessage], _ nginx: [String], _ serve: [String]) -> Bool {
        guard let difference = firstDifference(messages, nginx, serve), let message = difference.message,
            message.words.count == 2
        else { return false }
        if difference.nginx == "4xx" && difference.serve == "timeout" {
            return message.lines.count == 1 && message.requestLine.last == 0x0D && message.lines[0].ending.isEmpty
        }
        return difference.nginx == "other" && difference.serve == "4xx"
            && serve.dropFirst(difference.index + 1).allSatisfy { $0 == "closed" }
    }

    /// Both refuse the same request and then close, one with 400 and the other with 501 or 505:
    /// Transfer-Encoding (serve: 400 for `chunked` twice, empty, or beside Content-Length, where
    /// nginx answers 501 for any value but `chunked`) and major version 0 (nginx 400, serve 505).
    static func isRefusalStatusOnly(_ messages: [RawMessage], _ nginx: [String], _ serve: [String]) -> Bool {
        guard let difference = firstDifference(messages, nginx, serve), let message = difference.message,
            Set([difference.nginx, difference.serve]) == ["4xx", "5xx"],
            Array(nginx.dropFirst(difference.index + 1)) == Array(serve.dropFirst(difference.index + 1))
        else { return false }
        let version = message.words.count >= 3 ? String(decoding: message.words[2], as: UTF8.self) : ""
        // A major version above 1 is refused by both, each at the first error its parser meets in
        // the request line: nginx answers 505 at the version's digits even after `HTTP/11` or
        // before a bare CR, and 400 for a bad target before it; serve checks the version first.
        let major = version.hasPrefix("HTTP/") ? Int(version.dropFirst(5).prefix { $0.isASCII && $0.isNumber }.prefix(9)) : nil
        return !message.fields(named: "transfer-encoding").isEmpty || version.hasPrefix("HTTP/0.") || (major ?? 0) > 1
    }

    /// serve counts its limit over the whole head, nginx over one 16 KiB buffer that the line
    /// being read is copied into: a head within 64 bytes of the limit can be read by one and
    /// refused by the other.
    static func isInHeadSizeBand(_ messages: [RawMessage], _ nginx: [String], _ serve: [String]) -> Bool {
        guard let difference = firstDifference(messages, nginx, serve),
            Set([difference.nginx, difference.serve]) == ["2xx", "4xx"]
        else { return false }
        // nginx's buffer also holds the pipelined requests that follow a long head.
        return messages.prefix(difference.index + 1).contains {
            abs($0.leading.count + $0.headLength - maxHeaderBytes) <= 64
        }
    }
}

/// The documented differences that explain one disagreement, if any do.
struct Attribution {
    /// Names of the differences that apply, repairs first.
    var names: [String]
    /// serve's class for the repaired request, when a repair applied.
    var repairedServe: String?
    /// Whether the repairs and verdicts together explain nginx's class.
    var explains: Bool

    /// Repairs every request, asks serve again when anything changed, then checks the verdicts.
    ///
    /// - Parameters:
    ///   - bytes: The request as sent.
    ///   - nginx: nginx's class.
    ///   - serve: serve's class for `bytes`.
    ///   - ask: Sends bytes to serve and classifies the answer.
    init(_ bytes: [UInt8], nginx: String, serve: String, ask: ([UInt8]) throws -> String) rethrows {
        var messages = RawMessage.split(bytes)
        var names: [String] = []
        // A repair can change where the next request starts (a Content-Length nginx ignores), so
        // the repaired input is split and repaired again, until nothing changes.
        for _ in 0..<4 {
            var changed = false
            repairing: for index in messages.indices {
                for difference in KnownDifference.all {
                    guard case .repair(let repair) = difference.rule, repair(&messages[index]) else { continue }
                    changed = true
                    if !names.contains(difference.name) { names.append(difference.name) }
                    if messages[index] == RawMessage(Array("\u{0}\r\n".utf8)[...]) {
                        messages.removeSubrange((index + 1)...)
                        break repairing
                    }
                }
            }
            guard changed else { break }
            messages = RawMessage.split(RawMessage.join(messages))
        }
        var current = serve
        if !names.isEmpty {
            current = try ask(RawMessage.join(messages))
            repairedServe = current
        }
        self.names = names
        if current == nginx {
            explains = true
            return
        }
        // A verdict on the repaired request and serve's answer to it, or on the request as sent
        // (a repair can hide what the verdict is about: nginx's HTTP/0.9 reply to `GET /../x`).
        let nginxClasses = nginx.split(separator: " ").map(String.init)
        let sides = [
            (messages, current.split(separator: " ").map(String.init), names),
            (RawMessage.split(bytes), serve.split(separator: " ").map(String.init), [String]()),
        ]
        for (requests, serveClasses, repairs) in sides {
            for difference in KnownDifference.all {
                guard case .verdict(let verdict) = difference.rule, verdict(requests, nginxClasses, serveClasses) else {
                    continue
                }
                self.names = repairs + [difference.name]
                explains = true
                return
            }
        }
        explains = false
    }
}
