/// How long a call's phases took, in milliseconds from the start of the call, as curl's
/// `--write-out` `time_namelookup`, `time_connect`, `time_appconnect`, `time_starttransfer`
/// and `time_total` report them (cumulative, not per phase).
///
/// Through a proxy, `dns` and `connect` are about the proxy; `tls` ends when the TLS handshake
/// with the target through the tunnel is done. A phase that did not happen is `nil`.
public struct ProbeTimings: Sendable, Equatable {
    /// Name resolution done (`CURLINFO_NAMELOOKUP_TIME_T`), milliseconds.
    public var dns: Double?
    /// TCP connection made (`CURLINFO_CONNECT_TIME_T`), milliseconds; libcurl 7.88.1 records it
    /// only when the whole connect phase (a proxy's CONNECT, the TLS handshake) succeeds.
    public var connect: Double?
    /// TLS handshake done (`CURLINFO_APPCONNECT_TIME_T`), milliseconds.
    public var tls: Double?
    /// First response byte (`CURLINFO_STARTTRANSFER_TIME_T`), milliseconds.
    public var firstByte: Double?
    /// The whole call (`CURLINFO_TOTAL_TIME_T`, or the wall time), milliseconds.
    public var total: Double

    /// Timings.
    ///
    /// - Parameters: one per phase, milliseconds from the start; `nil` for a phase not reached.
    public init(dns: Double? = nil, connect: Double? = nil, tls: Double? = nil, firstByte: Double? = nil, total: Double) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}
