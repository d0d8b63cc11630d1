/// What the sanity server listens on and the limits it enforces.
///
/// Durations are in seconds, sizes in bytes. The defaults suit a container's upstream:
/// `stagebuild serve` with no flags.
public struct ServerConfiguration: Sendable, Equatable {
    /// The numeric address to listen on, e.g. `"127.0.0.1"`, `"::1"`, or `"::"` for every IPv6
    /// and IPv4 address (dual stack). Default `"127.0.0.1"`.
    public var host: String
    /// The TCP port; `0` lets the kernel pick a free one, which `start()` returns. Default `8080`.
    public var port: Int
    /// The server's name, sent in the `Server` response field (RFC 9110 section 10.2.4) and in every
    /// echo, so one can tell which upstream answered behind a load balancer. Default `"stagebuild"`.
    public var name: String
    /// How many connections are served at once; a connection above the limit is answered
    /// `503 Service Unavailable` with `Retry-After` and closed. At 90% of it, a new connection
    /// first closes the oldest idle keep-alive connection. Connections lingering to close do not
    /// count. Default `10000`, bounded by the process's descriptor limit (`RLIMIT_NOFILE`).
    public var maxConnections: Int
    /// How many event loops (threads) serve connections, as nginx's `worker_processes`; `0`
    /// means one per online processor. Default `0`.
    public var eventLoops: Int
    /// The longest wait `/delay/MS` performs, in seconds. Default `10`.
    public var maxDelay: Double
    /// Seconds a client has to send one whole request (head and body), counted from its first
    /// byte; past it the server answers `408 Request Timeout` (RFC 9110 section 15.5.9). It is also
    /// how long an idle keep-alive connection is kept before it is closed silently. Default `15`.
    public var readDeadline: Double
    /// Seconds that `shutdown()` lets requests in flight finish before it closes their
    /// connections. Default `5`.
    public var grace: Double
    /// The largest request head (request line and field lines), in bytes; larger gets
    /// `431 Request Header Fields Too Large` (RFC 6585 section 5). Default `16384`.
    public var maxHeaderBytes: Int
    /// The largest request body after chunked decoding, in bytes; larger gets
    /// `413 Content Too Large` (RFC 9110 section 15.5.14). Default `1048576` (1 MiB).
    public var maxBodyBytes: Int

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The numeric address to listen on; `"::"` listens on IPv6 and IPv4.
    ///   - port: The TCP port, `0...65535`; `0` picks a free one.
    ///   - name: Sent in `Server` and in every echo.
    ///   - maxConnections: Connections served at once, at least `1`.
    ///   - eventLoops: Event loop threads, `0` for one per processor, at most `64`.
    ///   - maxDelay: The cap of `/delay/MS`, in seconds.
    ///   - readDeadline: Seconds to send one request; also the keep-alive idle time.
    ///   - grace: Seconds that requests in flight get at shutdown.
    ///   - maxHeaderBytes: The largest request head, in bytes.
    ///   - maxBodyBytes: The largest request body, in bytes.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        name: String = "stagebuild",
        maxConnections: Int = 10_000,
        eventLoops: Int = 0,
        maxDelay: Double = 10,
        readDeadline: Double = 15,
        grace: Double = 5,
        maxHeaderBytes: Int = 16384,
        maxBodyBytes: Int = 1 << 20
    ) {
        self.host = host
        self.port = port
        self.name = name
        self.maxConnections = maxConnections
        self.eventLoops = eventLoops
        self.maxDelay = maxDelay
        self.readDeadline = readDeadline
        self.grace = grace
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// The settings ``validate()`` checks, named as the properties.
    public enum Setting: String, Sendable, Equatable {
        case port, maxConnections, eventLoops, maxDelay, readDeadline, grace, maxHeaderBytes, maxBodyBytes, name
    }

    /// Checks every value's range; durations are at most one day (86400 seconds).
    ///
    /// - Throws: ``ServerError/invalidConfiguration(_:requirement:)`` naming the first value out
    ///   of range.
    public func validate() throws(ServerError) {
        func require(_ condition: Bool, _ setting: Setting, _ requirement: String) throws(ServerError) {
            if !condition { throw .invalidConfiguration(setting, requirement: requirement) }
        }
        try require((0...65535).contains(port), .port, "must be 0...65535, got \(port)")
        try require(maxConnections >= 1, .maxConnections, "must be at least 1, got \(maxConnections)")
        try require((0...64).contains(eventLoops), .eventLoops, "must be 0...64, got \(eventLoops)")
        try require((0...86_400).contains(maxDelay), .maxDelay, "must be 0...86400 seconds, got \(maxDelay)")
        try require(
            readDeadline > 0 && readDeadline <= 86_400, .readDeadline,
            "must be more than 0 and at most 86400 seconds, got \(readDeadline)")
        try require((0...86_400).contains(grace), .grace, "must be 0...86400 seconds, got \(grace)")
        try require(maxHeaderBytes >= 64, .maxHeaderBytes, "must be at least 64, got \(maxHeaderBytes)")
        try require(maxBodyBytes >= 0, .maxBodyBytes, "must be 0 or more, got \(maxBodyBytes)")
        try require(
            !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, .name,
            "must be visible ASCII without spaces, got '\(name)'")
    }
}
