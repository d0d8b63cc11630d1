/// One answered request, handed to the access-log callback; the caller picks the format
/// (text or JSON) and where it goes.
public struct AccessLogEntry: Sendable, Equatable {
    /// When the response was sent, in seconds since the Unix epoch (from ``ServerClock``).
    public var time: Double
    /// The request method, e.g. `"GET"`; `nil` when the request line could not be read.
    public var method: String?
    /// The request target as sent, e.g. `"/anything?a=1"`; `nil` when the request line could not be read.
    public var target: String?
    /// The protocol version as sent, e.g. `"HTTP/1.1"`; `nil` when the request line could not be read.
    public var version: String?
    /// The response status code, e.g. `200`.
    public var status: Int
    /// Bytes of response content sent, without the head (like nginx's `$body_bytes_sent`).
    public var bytes: Int
    /// Milliseconds from the request's first byte to the end of the response.
    public var durationMilliseconds: Double
    /// The TCP peer the request came from.
    public var peer: SocketAddress

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - time: Seconds since the Unix epoch.
    ///   - method: The method, or `nil` when unknown.
    ///   - target: The request target, or `nil` when unknown.
    ///   - version: The protocol version, or `nil` when unknown.
    ///   - status: The status code.
    ///   - bytes: Content bytes sent.
    ///   - durationMilliseconds: Milliseconds spent on the request.
    ///   - peer: The TCP peer.
    public init(
        time: Double,
        method: String?,
        target: String?,
        version: String?,
        status: Int,
        bytes: Int,
        durationMilliseconds: Double,
        peer: SocketAddress
    ) {
        self.time = time
        self.method = method
        self.target = target
        self.version = version
        self.status = status
        self.bytes = bytes
        self.durationMilliseconds = durationMilliseconds
        self.peer = peer
    }
}
