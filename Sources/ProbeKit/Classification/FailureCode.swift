/// The stable, machine-readable name of a failure reason; the JSON report's `reason` field.
///
/// The raw values never change: scripts and CI rules match on them. Each case names one check
/// that failed; ``words`` says it in plain words.
public enum FailureCode: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The proxy's host name did not resolve (`CURLE_COULDNT_RESOLVE_PROXY`).
    case proxyNameNotResolved
    /// The TCP connection to the proxy failed: refused, unreachable (`CURLE_COULDNT_CONNECT`
    /// with a proxy).
    case proxyUnreachable
    /// The proxy did not answer in time: connecting to it, its answer to CONNECT, or the first
    /// byte of a forwarded request.
    case proxyTimeout
    /// The proxy answered `407 Proxy Authentication Required` (RFC 9110 section 15.5.8), to
    /// CONNECT or to a forwarded request.
    case proxyAuthenticationRequired
    /// The proxy refused: `403 Forbidden` to CONNECT (RFC 9110 section 9.3.6), or a 403 it made
    /// up itself for a forwarded request.
    case proxyForbidden
    /// The proxy's answer to CONNECT was not an HTTP answer, or ended before its header block
    /// did: no tunnel was opened (curl: "CONNECT tunnel failed, response 0", "Proxy CONNECT
    /// aborted").
    case proxyProtocolError
    /// The proxy could not reach the target: a `5xx` to CONNECT, or a `502`/`503`/`504` it made
    /// up itself (RFC 9110 sections 15.6.3-15.6.5).
    case proxyBadGateway
    /// The target's host name did not resolve (`CURLE_COULDNT_RESOLVE_HOST`).
    case targetNameNotResolved
    /// The TCP connection to the target failed (`CURLE_COULDNT_CONNECT`), or it closed without
    /// an answer.
    case connectFailed
    /// The TLS handshake failed for a reason other than the certificate (protocol, cipher, a
    /// peer that does not speak TLS; `CURLE_SSL_CONNECT_ERROR`).
    case tlsHandshakeFailed
    /// The certificate chain does not lead to a trusted CA (self-signed, unknown issuer).
    case certificateNotTrusted
    /// The certificate does not name the host asked for (RFC 9110 section 4.3.4; RFC 6125).
    case hostNameMismatch
    /// The certificate's validity ended (`X509_V_ERR_CERT_HAS_EXPIRED`).
    case certificateExpired
    /// The certificate's validity has not begun (`X509_V_ERR_CERT_NOT_YET_VALID`).
    case certificateNotYetValid
    /// The server's public key is not among the pinned keys (`CURLOPT_PINNEDPUBLICKEY`,
    /// `CURLE_SSL_PINNEDPUBKEYNOTMATCH`).
    case pinnedKeyMismatch
    /// The target did not answer in time (`CURLE_OPERATION_TIMEDOUT`); the message names the phase.
    case timeout
    /// With `-L`, the target redirected more times than `--max-redirs` allows
    /// (`CURLE_TOO_MANY_REDIRECTS`; Apple's `httpTooManyRedirects`).
    case tooManyRedirects
    /// With `-L`, a redirect was not followed: its `Location` is not a usable `http://` or
    /// `https://` URL, or it leaves the targets the run may ask for (the exporter's
    /// `--allow-target`). No request was sent to it.
    case redirectRefused
    /// The connection closed, or the peer sent bytes that are not HTTP, before any response
    /// came (`CURLE_GOT_NOTHING`, `CURLE_WEIRD_SERVER_REPLY`; Apple's `badServerResponse`).
    case noResponse
    /// The HTTP status is not among the expected ones (`--expect-status`, default `200-399`).
    case unexpectedStatus
    /// A header or body expectation did not hold (`--expect-header`, `--expect-body`).
    case expectationFailed
    /// The engine refused the request before connecting: FoundationNetworking on Linux returns
    /// `-1000 badURL` for IPv6 literal hosts (`--engine urlsession`).
    case engineRefusedURL
    /// The exporter could not prepare the request its module and target describe: a file the
    /// module names (a `*_file` secret, `body_file`, an `http_headers` file) could not be read,
    /// its `oauth2` token could not be obtained (RFC 6749 section 4.4), or the target is no URL
    /// the probe can call. Nothing was sent to the target.
    case requestNotPrepared
    /// The PAC script (`--pac`, the exporter's `pac_url`) gave no route: it could not be fetched
    /// or read, it threw, ran past its time or memory limit, or its answer held no entry a
    /// device can use. Nothing was sent to the target.
    case pacFailed
    /// The PAC script chose a SOCKS proxy, which the probe does not call through; the entries
    /// after it were not tried. Nothing was sent to the target.
    case proxyNotProbed

    /// The code itself, e.g. `"hostNameMismatch"`.
    public var description: String { rawValue }

    /// Which check of a certificate failed, for the codes that are one: what the TLS facts of
    /// a hop say was verified. Every code is placed here, so a new one must be.
    public enum CertificateCheck: Sendable, Equatable {
        /// The chain: not trusted, expired or not yet valid.
        case chain
        /// The host name (RFC 6125).
        case name
        /// The pinned public keys.
        case pin
    }

    /// The certificate check this code is the failure of; `nil` for a code that is not a
    /// certificate's (the handshake, if it finished, verified what the policy asks).
    public var certificateCheck: CertificateCheck? {
        switch self {
        case .certificateNotTrusted, .certificateExpired, .certificateNotYetValid: .chain
        case .hostNameMismatch: .name
        case .pinnedKeyMismatch: .pin
        case .proxyNameNotResolved, .proxyUnreachable, .proxyTimeout, .proxyAuthenticationRequired, .proxyForbidden,
            .proxyProtocolError, .proxyBadGateway, .targetNameNotResolved, .connectFailed, .tlsHandshakeFailed, .timeout,
            .tooManyRedirects, .redirectRefused, .noResponse, .unexpectedStatus, .expectationFailed, .engineRefusedURL,
            .requestNotPrepared, .pacFailed, .proxyNotProbed:
            nil
        }
    }

    /// The reason in plain words, e.g. `"host name mismatch"`.
    public var words: String {
        switch self {
        case .proxyNameNotResolved: "proxy name not resolved"
        case .proxyUnreachable: "proxy unreachable"
        case .proxyTimeout: "proxy timeout"
        case .proxyAuthenticationRequired: "proxy authentication required"
        case .proxyForbidden: "proxy forbidden"
        case .proxyProtocolError: "proxy protocol error"
        case .proxyBadGateway: "proxy bad gateway"
        case .targetNameNotResolved: "target name not resolved"
        case .connectFailed: "connect failed"
        case .tlsHandshakeFailed: "TLS handshake failed"
        case .certificateNotTrusted: "certificate not trusted"
        case .hostNameMismatch: "host name mismatch"
        case .certificateExpired: "certificate expired"
        case .certificateNotYetValid: "certificate not yet valid"
        case .pinnedKeyMismatch: "pinned key mismatch"
        case .timeout: "timeout"
        case .tooManyRedirects: "too many redirects"
        case .redirectRefused: "redirect refused"
        case .noResponse: "no HTTP response"
        case .unexpectedStatus: "unexpected HTTP status"
        case .expectationFailed: "expectation failed"
        case .engineRefusedURL: "URL refused by the engine"
        case .requestNotPrepared: "request not prepared"
        case .pacFailed: "PAC failed"
        case .proxyNotProbed: "proxy not probed"
        }
    }
}
