import Serialization

/// Maps a request to its response through ``Route/table``; pure, so every route is testable
/// without sockets. The wait of `/delay/MS` is returned in ``HTTPResponse/delayMilliseconds`` for
/// the connection to perform.
struct Router: RequestHandler {
    /// The route patterns, as the 404 body lists them.
    static let routes = Route.table.map(\.pattern)

    /// The methods the routes answer, for `Allow` (RFC 9110 section 10.2.1).
    static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"

    /// The server's name, shown in every echo.
    var serverName: String
    /// The cap of `/delay/MS`, in milliseconds.
    var maxDelayMilliseconds: Int

    /// The response to a request, at once: the routes never wait on anything but `/delay`'s timer.
    func answer(_ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder) -> HandlerAnswer {
        .now(response(to: request, peer: peer, local: local))
    }

    /// The response to a request.
    ///
    /// - Parameters:
    ///   - request: The complete request.
    ///   - peer: The TCP peer.
    ///   - local: The local end of the connection.
    /// - Returns: The response without `Date`, `Server`, `Connection` and framing fields.
    func response(to request: HTTPRequest, peer: SocketAddress, local: SocketAddress) -> HTTPResponse {
        if request.method == "CONNECT" {
            return errorResponse(405, "CONNECT is not supported: this is an origin server, not a proxy", allow: true)
        }
        if request.target == "*" {
            return HTTPResponse(status: 204, fields: [HTTPField(name: "Allow", value: Self.allowedMethods)], body: [])
        }
        let target = RequestTarget(request.target)
        let path = target.path
        for route in Route.table {
            guard let parameter = route.parameter(of: path) else { continue }
            // Only the routes that show the request build its echo and read Accept.
            var format: ResponseFormat { ResponseFormat.preferred(byAccept: request.values(ofField: "Accept")) }
            var echo: EchoDocument {
                EchoDocument(serverName: serverName, request: request, target: target, peer: peer, local: local)
            }
            switch route.kind {
            case .healthz:
                return .text(200, "ok\n")
            case .echo:
                return render(echo, format)
            case .headers:
                if format == .text {
                    return varyingByAccept(.text(200, request.headerFields.map { "\($0.name): \($0.value)\n" }.joined()))
                }
                return varyingByAccept(.json(200, .object([("headers", EchoDocument.fields(request.headerFields))])))
            case .ip:
                if format == .text { return varyingByAccept(.text(200, "\(peer.host)\n")) }
                return varyingByAccept(.json(200, EchoDocument.address(peer)))
            case .status:
                return status(String(parameter))
            case .delay:
                return delay(String(parameter), echo: echo, format: format)
            }
        }
        return .json(
            404,
            .object([
                ("error", .string("no route for \(path)")),
                ("status", .integer(404)),
                ("routes", .array(Self.routes.map(JSONValue.string))),
            ]))
    }

    private func render(_ echo: EchoDocument, _ format: ResponseFormat) -> HTTPResponse {
        varyingByAccept(format == .text ? .text(200, echo.text) : .json(200, echo.json))
    }

    /// The answer chosen by `Accept` says so, so a cache keeps the two forms apart (RFC 9110
    /// section 12.5.5).
    private func varyingByAccept(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.fields.append(HTTPField(name: "Vary", value: "Accept"))
        return response
    }

    /// `/status/CODE`: any final status `200...599`, with the fields RFC 9110 requires of it.
    private func status(_ text: String) -> HTTPResponse {
        guard text.count == 3, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let code = Int(text),
            (200...599).contains(code)
        else {
            return errorResponse(400, "/status/CODE needs a final status code 200-599, got '\(text)'")
        }
        var fields: [HTTPField] = []
        switch code {
        case 301, 302, 303, 307, 308: fields.append(HTTPField(name: "Location", value: "/anything"))  // section 10.2.2
        case 401: fields.append(HTTPField(name: "WWW-Authenticate", value: "Basic realm=\"stagebuild\""))  // 11.6.1
        case 405: fields.append(HTTPField(name: "Allow", value: Self.allowedMethods))  // section 15.5.6
        case 407: fields.append(HTTPField(name: "Proxy-Authenticate", value: "Basic realm=\"stagebuild\""))  // 11.7.1
        case 426: fields.append(HTTPField(name: "Upgrade", value: "HTTP/2.0"))  // section 15.5.22
        case 205:
            // Section 15.3.6: a 205 has no content.
            return HTTPResponse(status: 205, fields: [], body: [])
        default: break
        }
        let document = JSONValue.object([
            ("status", .integer(code)), ("reason", .string(HTTPStatus.reasonPhrase(code))),
        ])
        var response = HTTPResponse.json(code, document, fields: fields)
        if code == 206 {
            // Section 15.3.7: a 206 says which part it holds; here, all of it.
            response.fields.append(
                HTTPField(name: "Content-Range", value: "bytes 0-\(response.body.count - 1)/\(response.body.count)"))
        }
        return response
    }

    /// `/delay/MS`: the echo after `MS` milliseconds, capped at ``maxDelayMilliseconds``.
    private func delay(_ text: String, echo: EchoDocument, format: ResponseFormat) -> HTTPResponse {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let requested = Int(text)
        else {
            return errorResponse(400, "/delay/MS needs a whole number of milliseconds, got '\(text)'")
        }
        var echo = echo
        let applied = min(requested, maxDelayMilliseconds)
        echo.delay = (requested, applied)
        var response = render(echo, format)
        response.delayMilliseconds = applied
        return response
    }

    private func errorResponse(_ code: Int, _ message: String, allow: Bool = false) -> HTTPResponse {
        .json(
            code,
            .object([("error", .string(message)), ("status", .integer(code))]),
            fields: allow ? [HTTPField(name: "Allow", value: Self.allowedMethods)] : [])
    }
}
