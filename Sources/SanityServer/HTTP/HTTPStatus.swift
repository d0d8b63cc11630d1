/// Reason phrases of the status codes in RFC 9110 section 15 and RFC 6585.
enum HTTPStatus {
    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 511: "Network Authentication Required",
    ]

    /// The reason phrase, or `""` for a code without one (RFC 9112 section 4 allows it empty).
    ///
    /// - Parameters:
    ///   - code: A status code, `100...599`.
    static func reasonPhrase(_ code: Int) -> String {
        phrases[code] ?? ""
    }

    /// Whether a response with this status never has content (RFC 9110 sections 6.4.1 and 8.6):
    /// 1xx, 204 and 304; such responses carry no `Content-Length` either.
    static func forbidsContent(_ code: Int) -> Bool {
        (100...199).contains(code) || code == 204 || code == 304
    }
}
