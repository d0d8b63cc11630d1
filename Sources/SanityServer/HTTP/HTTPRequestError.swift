/// Why a request could not be read, with the status code the server answers before it closes
/// the connection.
public enum HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request line is not `method SP request-target SP HTTP-version` (RFC 9112 section 3): 400.
    ///
    /// - Parameters:
    ///   - detail: What is wrong, e.g. `"method is not a token"`.
    case malformedRequestLine(String)
    /// A field line is not `field-name ":" OWS field-value OWS` (RFC 9112 section 5): 400.
    ///
    /// - Parameters:
    ///   - detail: What is wrong, e.g. `"whitespace between field name and colon"`.
    case malformedFieldLine(String)
    /// A field line starts with whitespace: obsolete line folding (RFC 9112 section 5.2): 400.
    case obsoleteLineFolding
    /// `Host` is missing from an HTTP/1.1 request or sent more than once (RFC 9112 section 3.2): 400.
    ///
    /// - Parameters:
    ///   - detail: What is wrong, e.g. `"Host is missing"`.
    case invalidHost(String)
    /// `Content-Length` is not one decimal number (RFC 9112 section 6.3): 400.
    ///
    /// - Parameters:
    ///   - value: The offending value.
    case invalidContentLength(String)
    /// The message framing is ambiguous (RFC 9112 sections 6.1 and 6.3): `Transfer-Encoding`
    /// with `Content-Length`, in HTTP/1.0, or chunked twice: 400.
    ///
    /// - Parameters:
    ///   - detail: What is wrong.
    case invalidFraming(String)
    /// The chunked body breaks RFC 9112 section 7.1: 400.
    ///
    /// - Parameters:
    ///   - detail: What is wrong, e.g. `"chunk size is not hexadecimal"`.
    case malformedChunkedBody(String)
    /// The client closed its side before the request was complete (RFC 9112 section 8): 400.
    case incompleteRequest
    /// The request line is longer than the head limit (RFC 9112 section 3): 414.
    ///
    /// - Parameters:
    ///   - limit: The head limit in bytes.
    case requestTargetTooLong(limit: Int)
    /// The head or the trailer section is larger than the limit (RFC 6585 section 5): 431.
    ///
    /// - Parameters:
    ///   - limit: The limit in bytes.
    case headerSectionTooLarge(limit: Int)
    /// The body is larger than the limit (RFC 9110 section 15.5.14): 413.
    ///
    /// - Parameters:
    ///   - limit: The limit in bytes.
    case contentTooLarge(limit: Int)
    /// `Transfer-Encoding` names a coding other than `chunked` (RFC 9112 section 6.1): 501.
    ///
    /// - Parameters:
    ///   - coding: The coding, e.g. `"gzip"`.
    case unsupportedTransferCoding(String)
    /// The major version is not 1 (RFC 9110 section 15.6.6): 505.
    ///
    /// - Parameters:
    ///   - version: The version as sent, e.g. `"HTTP/2.0"`.
    case unsupportedVersion(String)
    /// `Expect` asks for something other than `100-continue` (RFC 9110 section 10.1.1): 417.
    ///
    /// - Parameters:
    ///   - expectation: The value as sent.
    case unsupportedExpectation(String)

    /// The status code the server answers with.
    public var status: Int {
        switch self {
        case .malformedRequestLine, .malformedFieldLine, .obsoleteLineFolding, .invalidHost,
            .invalidContentLength, .invalidFraming, .malformedChunkedBody, .incompleteRequest:
            return 400
        case .requestTargetTooLong: return 414
        case .headerSectionTooLarge: return 431
        case .contentTooLarge: return 413
        case .unsupportedTransferCoding: return 501
        case .unsupportedVersion: return 505
        case .unsupportedExpectation: return 417
        }
    }

    /// A sentence for the error body that says what to change.
    public var description: String {
        switch self {
        case .malformedRequestLine(let detail): return "malformed request line: \(detail)"
        case .malformedFieldLine(let detail): return "malformed field line: \(detail)"
        case .obsoleteLineFolding: return "obsolete line folding (a field line starting with whitespace) is not accepted"
        case .invalidHost(let detail): return "invalid Host: \(detail)"
        case .invalidContentLength(let value): return "Content-Length must be one decimal number, got '\(value)'"
        case .invalidFraming(let detail): return "ambiguous message framing: \(detail)"
        case .malformedChunkedBody(let detail): return "malformed chunked body: \(detail)"
        case .incompleteRequest: return "the connection was closed before the request was complete"
        case .requestTargetTooLong(let limit): return "request line longer than \(limit) bytes"
        case .headerSectionTooLarge(let limit): return "header section larger than \(limit) bytes"
        case .contentTooLarge(let limit): return "body larger than \(limit) bytes"
        case .unsupportedTransferCoding(let coding):
            return "transfer coding '\(coding)' is not supported; send chunked or Content-Length"
        case .unsupportedVersion(let version): return "\(version) is not supported; send HTTP/1.1 or HTTP/1.0"
        case .unsupportedExpectation(let value): return "expectation '\(value)' is not supported; only 100-continue is"
        }
    }
}
