import Serialization

/// Decodes the chunked transfer coding (RFC 9112 section 7.1) incrementally, remembering its
/// position in the connection's input between calls.
struct ChunkedBodyDecoder: Sendable {
    /// The input position of the next unread byte; after completion, the end of the message.
    private(set) var offset: Int
    /// The content decoded so far.
    private(set) var body: [UInt8] = []
    /// Fields of the trailer section (RFC 9112 section 7.1.2), in arrival order.
    private(set) var trailers: [HTTPField] = []

    private let maxBodyBytes: Int
    private let maxTrailerBytes: Int
    private var state: State = .size

    /// The longest chunk-size line, extensions included, that is accepted, in bytes.
    static let maxSizeLineBytes = 4096

    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer(sectionStart: Int)
    }

    /// Creates a decoder for a body that starts at `offset`.
    ///
    /// - Parameters:
    ///   - offset: Where the body starts in the input: just after the head.
    ///   - maxBodyBytes: The largest decoded body, in bytes.
    ///   - maxTrailerBytes: The largest trailer section, in bytes.
    init(offset: Int, maxBodyBytes: Int, maxTrailerBytes: Int) {
        self.offset = offset
        self.maxBodyBytes = maxBodyBytes
        self.maxTrailerBytes = maxTrailerBytes
    }

    /// Decodes as far as the input goes.
    ///
    /// - Parameters:
    ///   - input: The connection's input, the same bytes as before grown at the end.
    /// - Returns: `true` once the last chunk and the trailer section have been read.
    /// - Throws: ``HTTPRequestError/malformedChunkedBody(_:)``, ``HTTPRequestError/contentTooLarge(limit:)``
    ///   or ``HTTPRequestError/headerSectionTooLarge(limit:)`` for the trailer section.
    mutating func decode(_ input: [UInt8]) throws(HTTPRequestError) -> Bool {
        while true {
            switch state {
            case .size:
                guard
                    let line = try nextLine(
                        input, limit: Self.maxSizeLineBytes, tooLong: .malformedChunkedBody("chunk size line too long"))
                else {
                    // What has arrived of the size line must already be a size (and extensions):
                    // `0x3` is refused at its `x`, not at the read deadline. A CR may be the line's
                    // end, so what comes before it must be a size, even when that is nothing (a
                    // CR first can only end an empty size line; nginx refuses it at once).
                    var partial = input[offset...]
                    let endsWithCR = partial.last == ASCII.carriageReturn
                    if endsWithCR { partial = partial.dropLast() }
                    if !partial.isEmpty || endsWithCR { _ = try parseSize(partial) }
                    return false
                }
                let size = try parseSize(line)
                if size == 0 {
                    state = .trailer(sectionStart: offset)
                } else {
                    guard body.count + size <= maxBodyBytes else { throw .contentTooLarge(limit: maxBodyBytes) }
                    state = .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, input.count - offset)
                body.append(contentsOf: input[offset..<(offset + available)])
                offset += available
                guard available == remaining else {
                    state = .data(remaining: remaining - available)
                    return false
                }
                state = .dataEnd
            case .dataEnd:
                guard offset < input.count else { return false }
                if input[offset] == ASCII.lineFeed {
                    offset += 1
                } else if input[offset] == ASCII.carriageReturn {
                    guard offset + 1 < input.count else { return false }
                    guard input[offset + 1] == ASCII.lineFeed else {
                        throw .malformedChunkedBody("chunk data not followed by CRLF")
                    }
                    offset += 2
                } else {
                    throw .malformedChunkedBody("chunk data not followed by CRLF")
                }
                state = .size
            case .trailer(let sectionStart):
                let used = offset - sectionStart
                guard
                    let line = try nextLine(
                        input, limit: maxTrailerBytes - used, tooLong: .headerSectionTooLarge(limit: maxTrailerBytes))
                else { return false }
                if line.isEmpty { return true }
                if let first = line.first, first.isHTTPWhitespace { throw .obsoleteLineFolding }
                trailers.append(try HTTPRequestParser.parseFieldLine(line))
            }
        }
    }

    /// The next line without its line ending, advancing past it; `nil` until its LF arrives.
    private mutating func nextLine(
        _ input: [UInt8], limit: Int, tooLong: HTTPRequestError
    ) throws(HTTPRequestError) -> ArraySlice<UInt8>? {
        guard let lineFeed = input[offset...].firstIndex(of: ASCII.lineFeed) else {
            if input.count - offset > limit { throw tooLong }
            // A bare CR is refused as soon as the byte after it is known (RFC 9112 section 2.2),
            // not at the read deadline.
            if input.count - offset >= 2,
                let carriageReturn = input[offset..<(input.count - 1)].firstIndex(of: ASCII.carriageReturn),
                input[carriageReturn + 1] != ASCII.lineFeed
            {
                throw .malformedChunkedBody("bare CR")
            }
            return nil
        }
        if lineFeed - offset > limit { throw tooLong }
        var line = input[offset..<lineFeed]
        if line.last == ASCII.carriageReturn { line = line.dropLast() }
        if line.contains(ASCII.carriageReturn) { throw .malformedChunkedBody("bare CR") }
        offset = lineFeed + 1
        return line
    }

    /// Parses `chunk-size [ chunk-ext ]` (RFC 9112 section 7.1.1); extensions are checked and ignored.
    private func parseSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let value = HexDigit.value(of: line[index]).map(Int.init) {
            if size != 0 || value != 0 { digits += 1 }
            guard digits <= 15 else { throw .contentTooLarge(limit: maxBodyBytes) }
            size = size << 4 | value
            index += 1
        }
        guard index > line.startIndex else { throw .malformedChunkedBody("chunk size is not hexadecimal") }
        var rest = line[index...]
        while let first = rest.first, first.isHTTPWhitespace { rest = rest.dropFirst() }
        guard rest.isEmpty || (rest.first == UInt8(ascii: ";") && rest.allSatisfy(HTTPToken.isFieldValueCharacter)) else {
            throw .malformedChunkedBody("unexpected characters after the chunk size")
        }
        return size
    }
}
