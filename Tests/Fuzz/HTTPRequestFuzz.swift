import SanityServer

/// serve's HTTP/1.1 request parser (`HTTPRequestParser`), over a connection's bytes with
/// pipelined requests. For every input:
/// - fed in two pieces (split where the input's first byte says), as a socket delivers it, the
///   parser reads the same requests and stops with the same error status as when fed at once:
///   it never decides on bytes that have not arrived;
/// - each request it returns consumed at least one byte, and no more than it was given;
/// - each request, written again in RFC 9112 form (its field lines as read, its body framed as
///   its own fields say), reads back as the same request.
enum HTTPRequestFuzz {
    static let target = FuzzTarget(name: "http-request", check: check, grow: grow)

    /// Small limits, so the fuzzer reaches them with inputs of a few kilobytes.
    static func makeParser() -> HTTPRequestParser { HTTPRequestParser(maxHeaderBytes: 1024, maxBodyBytes: 4096) }

    /// What a connection's bytes read as: the requests, then an error status or `nil` when the
    /// input ended inside a request or at a request boundary.
    struct Reading: Equatable {
        var requests: [HTTPRequest] = []
        var errorStatus: Int?
    }

    static func check(_ bytes: [UInt8]) {
        let whole = read(bytes, splitAt: nil)
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
        if read(bytes, splitAt: split) != whole {
            invariantFailed("http-request", "fed in two pieces split at byte \(split), the input reads differently")
        }
        for request in whole.requests {
            var parser = makeParser()
            let written = serialized(request)
            guard let again = try? parser.parse(written), again.request == request, again.consumedByteCount == written.count
            else {
                invariantFailed("http-request", "\(request.method) \(request.target) does not read back as itself")
            }
        }
    }

    /// Reads requests from `bytes` as a connection does: the parser sees the bytes up to
    /// `splitAt` first, then all of them.
    static func read(_ bytes: [UInt8], splitAt: Int?) -> Reading {
        var reading = Reading()
        var parser = makeParser()
        var offset = 0
        var arrived = splitAt ?? bytes.count
        // Each request consumes at least one byte, so this ends; the bound is a second guard.
        for _ in 0...bytes.count {
            let input = Array(bytes[offset..<arrived])
            do {
                if let (request, consumed) = try parser.parse(input) {
                    if consumed < 1 || consumed > input.count {
                        invariantFailed("http-request", "consumed \(consumed) of \(input.count) bytes")
                    }
                    reading.requests.append(request)
                    offset += consumed
                    parser.reset()
                    if offset == bytes.count { return reading }
                } else if arrived < bytes.count {
                    arrived = bytes.count
                } else {
                    return reading
                }
            } catch {
                reading.errorStatus = error.status
                return reading
            }
        }
        return reading
    }

    /// The request in RFC 9112 form: its request line and field lines as read, then its body as
    /// one chunk and its trailers when it is chunked, else the body as is.
    static func serialized(_ request: HTTPRequest) -> [UInt8] {
        var text = "\(request.method) \(request.target) \(request.version)\r\n"
        for field in request.headerFields { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        let chunked = request.values(ofField: "Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
        guard chunked else { return bytes + request.body }
        if !request.body.isEmpty {
            bytes += Array(String(request.body.count, radix: 16).utf8) + [13, 10] + request.body + [13, 10]
        }
        bytes += Array("0\r\n".utf8)
        for field in request.trailerFields { bytes += Array("\(field.name): \(field.value)\r\n".utf8) }
        return bytes + [13, 10]
    }

    /// The requests repeated, as a client pipelines them.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        Array(repeating: seed, count: factor).flatMap { $0 }
    }
}
