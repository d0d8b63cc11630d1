import Digests
import Serialization

/// What reached the server for one request, as the echo routes show it: JSON by default, text
/// for clients that prefer `text/plain`.
struct EchoDocument: Sendable {
    var serverName: String
    var request: HTTPRequest
    var target: RequestTarget
    var peer: SocketAddress
    var local: SocketAddress
    /// `(requested, applied)` milliseconds for `/delay/MS`.
    var delay: (requested: Int, applied: Int)?

    /// The echo as a JSON object, members in a fixed order.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("server", .string(serverName)),
            ("method", .string(request.method)),
            ("target", .string(request.target)),
            ("path", .string(target.path)),
            ("query", .array(target.query.map { Self.pair($0.name, $0.value) })),
            ("version", .string(request.version.description)),
            ("headers", Self.fields(request.headerFields)),
            ("trailers", Self.fields(request.trailerFields)),
            ("peer", Self.address(peer)),
            ("local", Self.address(local)),
            (
                "body",
                .object([
                    ("length", .integer(request.body.count)),
                    ("sha256", .string(SHA256Digest(of: request.body).hex)),
                ])
            ),
        ]
        if let delay {
            members.append(
                (
                    "delay",
                    .object([
                        ("requestedMilliseconds", .integer(delay.requested)),
                        ("appliedMilliseconds", .integer(delay.applied)),
                    ])
                ))
        }
        return .object(members)
    }

    /// The echo as readable lines: the request line, then one `label: value` per line and every
    /// field indented under `headers:`.
    var text: String {
        // Decoded query values and field values are the client's bytes: a line feed or control
        // character in them is shown escaped, so it can never forge a line of the echo.
        let shown = ControlCharacters.escaped
        var lines = ["\(request.method) \(request.target) \(request.version)"]
        lines.append("server: \(serverName)")
        lines.append("peer: \(peer)")
        lines.append("local: \(local)")
        lines.append("path: \(shown(target.path))")
        if !target.query.isEmpty {
            lines.append("query:")
            lines.append(contentsOf: target.query.map { "  \(shown($0.name)) = \(shown($0.value))" })
        }
        lines.append("headers:")
        lines.append(contentsOf: request.headerFields.map { "  \($0.name): \($0.value)" })
        if !request.trailerFields.isEmpty {
            lines.append("trailers:")
            lines.append(contentsOf: request.trailerFields.map { "  \($0.name): \($0.value)" })
        }
        lines.append("body: \(request.body.count) bytes, sha256 \(SHA256Digest(of: request.body).hex)")
        if let delay {
            lines.append("delay: \(delay.applied) ms (requested \(delay.requested) ms)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `[{"name": ..., "value": ...}, ...]` in arrival order.
    static func fields(_ fields: [HTTPField]) -> JSONValue {
        .array(fields.map { pair($0.name, $0.value) })
    }

    /// `{"address": ..., "port": ...}`.
    static func address(_ address: SocketAddress) -> JSONValue {
        .object([("address", .string(address.host)), ("port", .integer(address.port))])
    }

    private static func pair(_ name: String, _ value: String) -> JSONValue {
        .object([("name", .string(name)), ("value", .string(value))])
    }
}

extension String {
    /// The text with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
