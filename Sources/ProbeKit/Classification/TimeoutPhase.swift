/// The phase of a call that ran out of time, read from which of libcurl's timers had fired
/// (curl_easy_getinfo(3), "TIMES").
public enum TimeoutPhase: String, Sendable, Equatable, CaseIterable {
    /// Resolving the target's or the proxy's name (`CURLINFO_NAMELOOKUP_TIME_T` not reached).
    case nameResolution
    /// The TCP connection to the proxy (`CURLINFO_CONNECT_TIME_T` not reached through a proxy).
    case proxyConnect
    /// Waiting for the proxy's answer to CONNECT (`CURLINFO_HTTP_CONNECTCODE` still `0`).
    case connectAnswer
    /// The TCP connection to the target.
    case targetConnect
    /// The TLS handshake (`CURLINFO_APPCONNECT_TIME_T` not reached).
    case tlsHandshake
    /// Waiting for the first byte of the response (`CURLINFO_STARTTRANSFER_TIME_T` not reached).
    case firstByte
    /// Receiving the body.
    case body

    /// The phase in plain words, e.g. `"waiting for the proxy's answer to CONNECT"`.
    public var words: String {
        switch self {
        case .nameResolution: "name resolution"
        case .proxyConnect: "proxy connect"
        case .connectAnswer: "waiting for the proxy's answer to CONNECT"
        case .targetConnect: "target connect"
        case .tlsHandshake: "TLS handshake"
        case .firstByte: "waiting for the first byte"
        case .body: "receiving the body"
        }
    }

    /// Whether `--connect-timeout` (`CURLOPT_CONNECTTIMEOUT_MS`) bounds this phase: everything up
    /// to a usable connection, the proxy's CONNECT answer and the TLS handshake included.
    public var isConnectPhase: Bool {
        switch self {
        case .nameResolution, .proxyConnect, .connectAnswer, .targetConnect, .tlsHandshake: true
        case .firstByte, .body: false
        }
    }
}
