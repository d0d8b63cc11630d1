import Serialization

/// A response a handler produced, before the connection adds `Date`, `Server`, `Connection`
/// and framing (`Content-Length`).
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, `200...599` (RFC 9110 section 15).
    public var status: Int
    /// Fields the handler adds, e.g. `("Content-Type", "application/json")`, in order; never
    /// `Content-Length`, `Connection`, `Date` or `Server`, which the connection writes.
    public var fields: [HTTPField]
    /// The content; dropped on the wire for HEAD, 204 and 304.
    public var body: [UInt8]
    /// Milliseconds the connection waits before it sends the response (`/delay/MS`).
    public var delayMilliseconds: Int

    /// A response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - fields: Fields in order.
    ///   - body: The content.
    ///   - delayMilliseconds: How long the connection holds it before sending; `0` sends at once.
    public init(status: Int, fields: [HTTPField], body: [UInt8], delayMilliseconds: Int = 0) {
        self.status = status
        self.fields = fields
        self.body = body
        self.delayMilliseconds = delayMilliseconds
    }

    /// A JSON document response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - document: The body.
    ///   - fields: Extra fields after `Content-Type`.
    static func json(_ status: Int, _ document: JSONValue, fields: [HTTPField] = []) -> HTTPResponse {
        // Small objects (a header's name and value, an address) stay on one line.
        var body: [UInt8] = []
        body.reserveCapacity(1024)
        document.write(to: &body, indent: 0, layout: .indentedInliningSmallObjects)
        body.append(ASCII.lineFeed)
        return HTTPResponse(
            status: status, fields: [HTTPField(name: "Content-Type", value: "application/json")] + fields, body: body)
    }

    /// A plain text response in UTF-8.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - text: The body.
    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, fields: [HTTPField(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array(text.utf8))
    }

    /// The error answer for a request that could not be read, as JSON `{"error": ..., "status": ...}`.
    ///
    /// - Parameters:
    ///   - error: Why the request was rejected.
    static func rejection(_ error: HTTPRequestError) -> HTTPResponse {
        json(
            error.status,
            .object([("error", .string(error.description)), ("status", .integer(error.status))]))
    }

    /// The answer when the request did not arrive within the read deadline (RFC 9110 section 15.5.9).
    ///
    /// - Parameters:
    ///   - seconds: The deadline, for the message.
    static func requestTimeout(seconds: Double) -> HTTPResponse {
        json(
            408,
            .object([
                ("error", .string("the request did not arrive within the read deadline of \(seconds) seconds")),
                ("status", .integer(408)),
            ]))
    }

    /// The answer to a connection above the limit (RFC 9110 sections 15.6.4 and 10.2.3).
    static func overloaded() -> HTTPResponse {
        json(
            503,
            .object([("error", .string("too many connections; retry shortly")), ("status", .integer(503))]),
            fields: [HTTPField(name: "Retry-After", value: "1")])
    }

    /// The bytes on the wire: status line, fields, empty line and content (RFC 9112 sections 4 to 6).
    ///
    /// - Parameters:
    ///   - date: The `Date` value (IMF-fixdate).
    ///   - server: The `Server` value.
    ///   - connection: `"close"`, `"keep-alive"` (for HTTP/1.0 clients), or `nil` for none.
    ///   - omitsContent: `true` for a HEAD request: `Content-Length` is sent, the content is not
    ///     (RFC 9110 section 9.3.2).
    /// - Returns: The response bytes and how many of them are content.
    func serialized(
        date: String, server: String, connection: String?, omitsContent: Bool
    ) -> (
        bytes: [UInt8], contentBytes: Int
    ) {
        let forbidsContent = HTTPStatus.forbidsContent(status)
        let sendsContent = !forbidsContent && !omitsContent
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + fields.count * 48 + (sendsContent ? body.count : 0))
        func line(_ name: String, _ value: String) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        bytes.append(contentsOf: String(status).utf8)
        bytes.append(ASCII.space)
        bytes.append(contentsOf: HTTPStatus.reasonPhrase(status).utf8)
        bytes.append(contentsOf: "\r\n".utf8)
        line("Date", date)
        line("Server", server)
        for field in fields { line(field.name, field.value) }
        if !forbidsContent { line("Content-Length", String(body.count)) }
        if let connection { line("Connection", connection) }
        bytes.append(contentsOf: "\r\n".utf8)
        guard sendsContent else { return (bytes, 0) }
        bytes.append(contentsOf: body)
        return (bytes, body.count)
    }
}
