/// A complete request as the parser read it (RFC 9112): request line, field lines in arrival
/// order, the decoded body and any trailer fields.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token, case-sensitive (RFC 9110 section 9.1), e.g. `"GET"`.
    public var method: String
    /// The request target exactly as sent (RFC 9112 section 3.2), e.g. `"/anything?a=1"`.
    public var target: String
    /// The protocol version as sent.
    public var version: HTTPVersion
    /// Every field line in arrival order, with duplicates and original case.
    public var headerFields: [HTTPField]
    /// The content after `Content-Length` framing or chunked decoding (RFC 9112 section 7.1).
    public var body: [UInt8]
    /// Fields from a chunked body's trailer section (RFC 9112 section 7.1.2), in arrival order.
    public var trailerFields: [HTTPField]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method token.
    ///   - target: The request target as sent.
    ///   - version: The protocol version.
    ///   - headerFields: Field lines in arrival order.
    ///   - body: The decoded content.
    ///   - trailerFields: Trailer fields in arrival order.
    public init(
        method: String,
        target: String,
        version: HTTPVersion,
        headerFields: [HTTPField],
        body: [UInt8] = [],
        trailerFields: [HTTPField] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headerFields = headerFields
        self.body = body
        self.trailerFields = trailerFields
    }

    /// The values of every field with this name, compared case-insensitively, in arrival order.
    ///
    /// - Parameters:
    ///   - name: A field name in any case, e.g. `"x-forwarded-for"`.
    /// - Returns: The values, empty when the field is absent.
    public func values(ofField name: String) -> [String] {
        headerFields.filter { ASCII.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Whether the connection stays open after this request (RFC 9112 section 9.3): HTTP/1.1
    /// unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsConnectionOpen: Bool {
        let options = values(ofField: "Connection").flatMap(ASCII.listElements).map { $0.lowercased() }
        if options.contains("close") { return false }
        if version.minor == 0 { return options.contains("keep-alive") }
        return true
    }
}
