/// A parsed request head, kept by ``HTTPRequestParser`` while the body arrives.
struct RequestHead: Sendable {
    /// How the body's length is known (RFC 9112 section 6.3).
    enum Framing: Sendable, Equatable {
        /// No body.
        case none
        /// Exactly this many bytes follow the head.
        case contentLength(Int)
        /// The chunked transfer coding (RFC 9112 section 7.1).
        case chunked
    }

    var method: String
    var target: String
    var version: HTTPVersion
    var fields: [HTTPField]
    var framing: Framing
    /// `Expect: 100-continue` in an HTTP/1.1 request (RFC 9110 section 10.1.1).
    var expectsContinue: Bool
    /// Bytes of input up to the end of the head, leading empty lines included.
    var length: Int = 0
}
