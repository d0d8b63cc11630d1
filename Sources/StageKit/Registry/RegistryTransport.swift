/// Sends one HTTP request to a registry and returns its answer: the one door through which
/// ``RegistryClient`` reaches the network, so tests swap it and the CLI chooses the real one
/// (libcurl with the probe's proxy selection and TLS options).
///
/// A transport does not follow redirects and does not authenticate: the client does both.
/// It bounds every call in time (connect and total deadlines) and reports an answer of any
/// status as a response; only a call that got no answer throws.
public protocol RegistryTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameter request: Method, absolute URL and header fields.
    /// - Returns: The response, whatever its status.
    /// - Throws: `RegistryTransportError` when no answer arrived (refused, unresolved name,
    ///   proxy failure, TLS failure, deadline) or the body was larger than the transport keeps.
    func send(_ request: RegistryRequest) throws(RegistryTransportError) -> RegistryResponse
}

/// One HTTP request to a registry.
public struct RegistryRequest: Sendable, Hashable, CustomStringConvertible {
    /// `HEAD` or `GET`.
    public var method: String
    /// The absolute URL, e.g. `https://registry-1.docker.io/v2/library/debian/manifests/bookworm-slim`.
    public var url: String
    /// Header fields as `Name: value` lines; `Authorization` among them when authenticated.
    public var headerLines: [String]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: `HEAD` or `GET`.
    ///   - url: The absolute URL.
    ///   - headerLines: `Name: value` lines.
    public init(method: String, url: String, headerLines: [String] = []) {
        self.method = method
        self.url = url
        self.headerLines = headerLines
    }

    /// `METHOD URL`, never a header value (one may hold credentials).
    public var description: String { "\(method) \(url)" }
}

/// A registry's answer.
public struct RegistryResponse: Sendable, Hashable {
    /// The HTTP status code, e.g. 200 or 401.
    public var statusCode: Int
    /// Header fields in order, names as sent.
    public var headers: [Field]
    /// The body (empty for `HEAD`).
    public var body: [UInt8]

    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as sent.
        public var name: String
        /// The value without surrounding white space.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(statusCode: Int, headers: [Field] = [], body: [UInt8] = []) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, names compared case-insensitively (RFC 9110 section 5.1).
    ///
    /// - Parameter name: e.g. `Docker-Content-Digest`.
    public func header(_ name: String) -> String? {
        headers(named: name).first
    }

    /// Every value of a header field, in order.
    ///
    /// - Parameter name: e.g. `WWW-Authenticate`.
    public func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}

/// A registry call that got no answer.
public struct RegistryTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// No connection: refused, unreachable, name not resolved, proxy failed.
        case unreachable
        /// A deadline passed (`--connect-timeout`, `--max-time`).
        case timedOut
        /// The TLS handshake or the certificate check failed.
        case tls
        /// Any other failure, e.g. a body too large or a malformed answer.
        case other
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, in the words of the HTTP library (never with credentials).
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - message: What happened.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
