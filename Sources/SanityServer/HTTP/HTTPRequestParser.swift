import Serialization

/// Reads HTTP/1.1 requests from bytes (RFC 9112), one at a time, without any I/O.
///
/// Feed it the connection's unconsumed input, from the first byte of the request being read,
/// each time more bytes arrive. The parser remembers how far it got, so the same buffer must be
/// passed again, grown only at its end, until a request is returned; then the caller drops the
/// consumed bytes and the next call starts the next request (pipelining, RFC 9112 section 9.3.2).
///
/// It accepts what RFC 9112 requires a server to accept, and rejects the rest with an
/// ``HTTPRequestError`` whose ``HTTPRequestError/status`` is the answer to send:
/// - leading empty lines before the request line are ignored (section 2.2); a bare LF ends a line,
///   a bare CR is an error (section 2.2);
/// - request line `method SP request-target SP HTTP-version` with single spaces (section 3);
/// - field lines `name ":" OWS value OWS`, no whitespace before the colon (section 5.1), no
///   obsolete line folding (section 5.2), no control characters in values (RFC 9110 section 5.5);
/// - exactly one `Host` in HTTP/1.1 (section 3.2);
/// - framing by `Transfer-Encoding: chunked` or `Content-Length` (section 6), never both.
public struct HTTPRequestParser: Sendable {
    /// The largest head (request line and field lines), in bytes; also the trailer section's limit.
    public let maxHeaderBytes: Int
    /// The largest body after chunked decoding, in bytes.
    public let maxBodyBytes: Int

    /// Whether the request being read asked for `100 Continue` (RFC 9110 section 10.1.1) and its
    /// body has not fully arrived: the caller should send the interim response once.
    public private(set) var expectsContinue = false

    private var phase: Phase = .head(scanned: 0, checked: 0)

    private enum Phase: Sendable {
        /// `scanned`: how far the search for the head's end got; `checked`: where the first line
        /// not yet checked starts.
        case head(scanned: Int, checked: Int)
        case fixedBody(RequestHead, end: Int)
        case chunkedBody(RequestHead, ChunkedBodyDecoder)
    }

    /// Creates a parser with size limits.
    ///
    /// - Parameters:
    ///   - maxHeaderBytes: The largest head and trailer section, in bytes.
    ///   - maxBodyBytes: The largest decoded body, in bytes.
    public init(maxHeaderBytes: Int = 16384, maxBodyBytes: Int = 1 << 20) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Reads one request from the start of `input`, if it has fully arrived.
    ///
    /// - Parameters:
    ///   - input: The unconsumed bytes of the connection, starting with the request being read;
    ///     pass the same bytes again, grown at the end, until a request comes back.
    /// - Returns: The request and how many bytes of `input` it used, or `nil` when more bytes are
    ///   needed.
    /// - Throws: ``HTTPRequestError`` when the bytes cannot be a valid request; the parser must not
    ///   be used for this connection afterwards.
    public mutating func parse(_ input: [UInt8]) throws(HTTPRequestError) -> (request: HTTPRequest, consumedByteCount: Int)? {
        switch phase {
        case .head(let scanned, let checked):
            guard let (head, end) = try readHead(input, scanned: scanned, checked: checked) else { return nil }
            return try startBody(head, at: end, input)
        case .fixedBody(let head, let end):
            guard input.count >= end else { return nil }
            return finish(head, body: Array(input[head.length..<end]), trailers: [], consumed: end)
        case .chunkedBody(let head, var decoder):
            let complete = try decoder.decode(input)
            guard complete else {
                phase = .chunkedBody(head, decoder)
                return nil
            }
            return finish(head, body: decoder.body, trailers: decoder.trailers, consumed: decoder.offset)
        }
    }

    /// Forgets a partly read request, so the next call starts a new one.
    public mutating func reset() {
        phase = .head(scanned: 0, checked: 0)
        expectsContinue = false
    }

    private mutating func startBody(
        _ head: RequestHead, at end: Int, _ input: [UInt8]
    ) throws(HTTPRequestError) -> (
        request: HTTPRequest, consumedByteCount: Int
    )? {
        var head = head
        head.length = end
        switch head.framing {
        case .none:
            return finish(head, body: [], trailers: [], consumed: end)
        case .contentLength(let length):
            if length > maxBodyBytes { throw .contentTooLarge(limit: maxBodyBytes) }
            phase = .fixedBody(head, end: end + length)
            expectsContinue = head.expectsContinue
        case .chunked:
            phase = .chunkedBody(
                head, ChunkedBodyDecoder(offset: end, maxBodyBytes: maxBodyBytes, maxTrailerBytes: maxHeaderBytes))
            expectsContinue = head.expectsContinue
        }
        return try parse(input)
    }

    private mutating func finish(
        _ head: RequestHead, body: [UInt8], trailers: [HTTPField], consumed: Int
    ) -> (
        request: HTTPRequest, consumedByteCount: Int
    ) {
        reset()
        let request = HTTPRequest(
            method: head.method, target: head.target, version: head.version,
            headerFields: head.fields, body: body, trailerFields: trailers)
        return (request, consumed)
    }

    /// Finds the end of the head and parses it once it has arrived.
    private mutating func readHead(
        _ input: [UInt8], scanned: Int, checked: Int
    ) throws(HTTPRequestError) -> (RequestHead, Int)? {
        let start = try skipLeadingEmptyLines(input)
        guard let start else { return nil }
        // What cannot start a request is refused as soon as it arrives, not at the read
        // deadline: a method is a token up to its space (a TLS ClientHello is not). Until the
        // space has arrived, each call checks the bytes the previous calls had not seen.
        let methodFrom = max(scanned, start)
        if !input[start..<methodFrom].contains(ASCII.space) {
            var position = methodFrom
            while position < input.count, input[position] != ASCII.space {
                guard HTTPToken.isTokenCharacter(input[position]) else { throw .malformedRequestLine("method is not a token") }
                position += 1
            }
            if position == start && position < input.count { throw .malformedRequestLine("method is not a token") }
        }
        // Nor can a control byte anywhere in the request line (a bare CR is found below); once
        // the request line has ended (`checked` is past it), checkCompleteLines has read it.
        if checked <= start {
            let from = max(scanned, start)
            let requestLineEnd = input[from...].firstIndex(of: ASCII.lineFeed) ?? input.count
            if let control = input[from..<requestLineEnd].first(where: {
                ($0 < 0x20 && $0 != ASCII.carriageReturn) || $0 == 0x7F
            }) {
                throw .malformedRequestLine("control character \(control) in the request line")
            }
        }
        var index = max(scanned, start)
        var end: Int?
        scan: while index < input.count {
            // A CR not followed by LF (RFC 9112 section 2.2), as soon as the next byte is known;
            // a CR that ends the input so far is looked at again when more arrives.
            if input[index] == ASCII.carriageReturn {
                if index + 1 >= input.count { break scan }
                if input[index + 1] != ASCII.lineFeed {
                    // The lines before it are answered first, in the order they came (a request
                    // line with HTTP/3.0 gets its 505).
                    _ = try checkCompleteLines(input, start: start, from: max(checked, start), upTo: index)
                    throw .malformedRequestLine("bare CR")
                }
            }
            if input[index] == ASCII.lineFeed {
                let next = index + 1
                if next >= input.count { break scan }
                if input[next] == ASCII.lineFeed {
                    end = next + 1
                    break scan
                }
                if input[next] == ASCII.carriageReturn {
                    if next + 1 >= input.count { break scan }
                    if input[next + 1] == ASCII.lineFeed {
                        end = next + 2
                        break scan
                    }
                }
            }
            index += 1
        }
        guard let end else {
            let checkedNow = try checkCompleteLines(
                input, start: start, from: max(checked, start), upTo: min(index + 1, input.count))
            // A control byte in the line still arriving cannot become valid (RFC 9110 section 5.5).
            if checkedNow > start,
                input[checkedNow...].contains(where: {
                    ($0 < 0x20 && $0 != ASCII.tab && $0 != ASCII.carriageReturn) || $0 == 0x7F
                })
            {
                throw .malformedFieldLine("control character in a field line")
            }
            if checkedNow > start,
                let error = Self.arrivingFieldLineError(
                    input[checkedNow...], isFirstField: checkedNow == Self.firstFieldStart(input[...], start: start))
            {
                throw error
            }
            phase = .head(scanned: index, checked: checkedNow)
            if input.count - start > maxHeaderBytes { throw sizeError(input, start: start) }
            return nil
        }
        if end - start > maxHeaderBytes { throw sizeError(input, start: start) }
        let head = try parseHead(input[start..<end])
        return (head, end)
    }

    /// Checks each line of an unfinished head that has fully arrived, so that a malformed request
    /// line or field line is refused when it arrives, not at the read deadline (nginx refuses it
    /// there too); ``parseHead(_:)`` reads the whole head once it is complete.
    ///
    /// - Returns: Where the first line not yet checked starts.
    private func checkCompleteLines(
        _ input: [UInt8], start: Int, from checked: Int, upTo end: Int
    ) throws(HTTPRequestError) -> Int {
        var lineStart = checked
        let firstFieldStart = Self.firstFieldStart(input[..<end], start: start)
        while let lineFeed = input[lineStart..<end].firstIndex(of: ASCII.lineFeed) {
            var line = input[lineStart..<lineFeed]
            if line.last == ASCII.carriageReturn { line = line.dropLast() }
            if lineStart == start {
                _ = try Self.parseRequestLine(line)
            } else if let first = line.first {
                if first.isHTTPWhitespace { throw Self.leadingWhitespaceError(isFirstField: lineStart == firstFieldStart) }
                let field = try Self.parseFieldLine(line)
                // An invalid or second Host is refused when it arrives (RFC 9112 section 3.2), as
                // nginx does.
                if ASCII.bytes(field.name.utf8, equalLowercase: "host") {
                    if !Self.isValidHost(field.value) {
                        throw .invalidHost("'\(field.value)' is not uri-host [ \":\" port ]")
                    }
                    if input[(firstFieldStart ?? lineStart)..<lineStart].split(separator: ASCII.lineFeed).contains(where: {
                        Self.isHostLine($0)
                    }) {
                        throw .invalidHost("Host is sent more than once")
                    }
                }
            }
            lineStart = lineFeed + 1
        }
        return lineStart
    }

    /// Where the first field line starts: after the request line's LF, `nil` before it arrives.
    private static func firstFieldStart(_ input: ArraySlice<UInt8>, start: Int) -> Int? {
        input[start...].firstIndex(of: ASCII.lineFeed).map { $0 + 1 }
    }

    /// Why a field line that starts with whitespace is refused: after the request line it would
    /// hide the first field (RFC 9112 section 2.2), after a field it is obsolete line folding
    /// (section 5.2). Either way nothing that follows can make it valid.
    private static func leadingWhitespaceError(isFirstField: Bool) -> HTTPRequestError {
        isFirstField ? .malformedFieldLine("whitespace between the request line and the first field") : .obsoleteLineFolding
    }

    /// Why the start of a field line still arriving can never become valid, as nginx refuses it
    /// at that byte: white space first (``leadingWhitespaceError(isFirstField:)``; found beside
    /// nginx: `Connection: ke%p-alive` CRLF, SP CR waited for the read deadline), an empty name
    /// (the line starts with `:`), or white space before the colon (RFC 9112 section 5.1: a
    /// server MUST answer 400). Other bytes that are not a token's wait for the line's end,
    /// where ``parseFieldLine(_:)`` names them (nginx drops such a line).
    private static func arrivingFieldLineError(_ line: ArraySlice<UInt8>, isFirstField: Bool) -> HTTPRequestError? {
        if let first = line.first, first.isHTTPWhitespace { return leadingWhitespaceError(isFirstField: isFirstField) }
        let colon = line.firstIndex(of: ASCII.colon)
        if colon == line.startIndex { return .malformedFieldLine("empty field name") }
        if line[..<(colon ?? line.endIndex)].contains(where: \.isHTTPWhitespace) {
            return .malformedFieldLine("whitespace between field name and colon")
        }
        return nil
    }

    /// Whether a field line (its ending may follow) is a `Host` field.
    private static func isHostLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: ASCII.colon) else { return false }
        return ASCII.bytes(line[line.startIndex..<colon], equalLowercase: "host")
    }

    /// The position after any empty lines before the request line (RFC 9112 section 2.2), or `nil`
    /// when the input so far holds nothing else.
    private func skipLeadingEmptyLines(_ input: [UInt8]) throws(HTTPRequestError) -> Int? {
        var start = 0
        while start < input.count {
            if input[start] == ASCII.lineFeed {
                start += 1
            } else if input[start] == ASCII.carriageReturn {
                guard start + 1 < input.count else { return nil }
                guard input[start + 1] == ASCII.lineFeed else { throw .malformedRequestLine("bare CR") }
                start += 2
            } else {
                return start
            }
            if start > maxHeaderBytes { throw .malformedRequestLine("too many empty lines before the request line") }
        }
        return nil
    }

    /// 414 when even the request line does not fit the limit, otherwise 431.
    private func sizeError(_ input: [UInt8], start: Int) -> HTTPRequestError {
        let limit = min(input.count, start + maxHeaderBytes)
        if !input[start..<limit].contains(ASCII.lineFeed) { return .requestTargetTooLong(limit: maxHeaderBytes) }
        return .headerSectionTooLarge(limit: maxHeaderBytes)
    }
}
