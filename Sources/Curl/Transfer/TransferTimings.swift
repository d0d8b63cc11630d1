/// How long the phases of one transfer took, in milliseconds since the transfer started.
///
/// Each value is cumulative from the start, as libcurl measures it (curl_easy_getinfo(3),
/// "TIMES"), read from the `CURLINFO_*_TIME_T` infos in microseconds and divided by 1000.
/// For a successful transfer `nameLookup <= connect <= appConnect <= preTransfer <=
/// startTransfer <= total`; a phase that did not happen is `0` (for example `appConnect`
/// without TLS). Through a proxy, `nameLookup` and `connect` are about the proxy, and
/// `appConnect` ends when the TLS handshake with the target through the tunnel is done.
public struct TransferTimings: Sendable, Equatable {
    /// Name resolution done (`CURLINFO_NAMELOOKUP_TIME_T`), milliseconds.
    public var nameLookup: Double
    /// TCP connect to the host or proxy done (`CURLINFO_CONNECT_TIME_T`), milliseconds.
    public var connect: Double
    /// TLS handshake done (`CURLINFO_APPCONNECT_TIME_T`), milliseconds; `0` without TLS.
    public var appConnect: Double
    /// Ready to send the request (`CURLINFO_PRETRANSFER_TIME_T`), milliseconds.
    public var preTransfer: Double
    /// First response byte received (`CURLINFO_STARTTRANSFER_TIME_T`), milliseconds.
    public var startTransfer: Double
    /// Whole transfer (`CURLINFO_TOTAL_TIME_T`), milliseconds.
    public var total: Double

    /// Timings from cumulative millisecond values.
    ///
    /// - Parameters: one per phase, milliseconds since the transfer started.
    public init(
        nameLookup: Double = 0, connect: Double = 0, appConnect: Double = 0, preTransfer: Double = 0, startTransfer: Double = 0,
        total: Double = 0
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.appConnect = appConnect
        self.preTransfer = preTransfer
        self.startTransfer = startTransfer
        self.total = total
    }
}
