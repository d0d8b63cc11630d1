/// Everything one transfer collected: status, heads, a bounded body, timings, addresses,
/// the peer's certificates and libcurl's debug log.
///
/// Filled from libcurl's callbacks and from `curl_easy_getinfo` after the transfer. A failed
/// transfer carries the same value in ``CurlError/partialResponse``.
public struct CurlResponse: Sendable, Equatable {
    /// The final response's status code (`CURLINFO_RESPONSE_CODE`); `0` when none arrived.
    public var statusCode: Int
    /// The proxy's status code for CONNECT (`CURLINFO_HTTP_CONNECTCODE`); `0` when no tunnel
    /// was asked for or no answer arrived.
    public var connectStatusCode: Int
    /// The final response's HTTP version (`CURLINFO_HTTP_VERSION`): `CURL_HTTP_VERSION_1_0` (1),
    /// `_1_1` (2), `_2_0` (3) or `_3` (30); `0` when no response arrived.
    public var httpVersion: Int = 0
    /// Every response head in order: a proxy's CONNECT answer, interim `1xx`, the final one.
    public var heads: [ResponseHead]
    /// At most `maxBodyBytes` bytes of the body, from its start.
    public var body: [UInt8]
    /// Body bytes received in total, also those past `maxBodyBytes`, in bytes.
    public var bodyByteCount: Int
    /// Phase timings in milliseconds.
    public var timings: TransferTimings
    /// The address of the last connection made, the proxy's when a proxy was used
    /// (`CURLINFO_PRIMARY_IP`), e.g. `"127.0.0.1"` or `"::1"`; `nil` before any connect.
    public var primaryIP: String?
    /// The port of the last connection made (`CURLINFO_PRIMARY_PORT`); `nil` before any connect.
    public var primaryPort: Int?
    /// The last URL used (`CURLINFO_EFFECTIVE_URL`).
    public var effectiveURL: String?
    /// The target's certificate chain, leaf first (`CURLINFO_CERTINFO`); empty unless
    /// `CURLOPT_CERTINFO` was on and a TLS handshake got that far.
    public var certificates: [PeerCertificate]
    /// OpenSSL's verification result for the target's certificate (`CURLINFO_SSL_VERIFYRESULT`,
    /// an `X509_V_*` number: 0 ok, 10 expired, 9 not yet valid, 18 self-signed, 19 self-signed
    /// in chain, 20 unknown issuer).
    public var tlsVerifyResult: Int
    /// The same for an HTTPS proxy's certificate (`CURLINFO_PROXY_SSL_VERIFYRESULT`).
    public var proxyTLSVerifyResult: Int
    /// libcurl's detail for ``CurlCode/proxy`` (`CURLINFO_PROXY_ERROR`, a `CURLproxycode`);
    /// `0` otherwise.
    public var proxyErrorCode: Int
    /// libcurl's debug output; empty unless `CURLOPT_VERBOSE` was on.
    public var debugLog: DebugLog
    /// The negotiated TLS of the connection to the target, when one was made and is still open
    /// (`CURLINFO_TLS_SSL_PTR` read with libssl).
    public var tlsSession: TLSSession?

    /// A response; every field defaults to "nothing happened".
    public init(
        statusCode: Int = 0, connectStatusCode: Int = 0, heads: [ResponseHead] = [], body: [UInt8] = [],
        bodyByteCount: Int = 0, timings: TransferTimings = TransferTimings(), primaryIP: String? = nil,
        primaryPort: Int? = nil, effectiveURL: String? = nil, certificates: [PeerCertificate] = [],
        tlsVerifyResult: Int = 0, proxyTLSVerifyResult: Int = 0, proxyErrorCode: Int = 0,
        debugLog: DebugLog = DebugLog(), tlsSession: TLSSession? = nil
    ) {
        self.tlsSession = tlsSession
        self.statusCode = statusCode
        self.connectStatusCode = connectStatusCode
        self.heads = heads
        self.body = body
        self.bodyByteCount = bodyByteCount
        self.timings = timings
        self.primaryIP = primaryIP
        self.primaryPort = primaryPort
        self.effectiveURL = effectiveURL
        self.certificates = certificates
        self.tlsVerifyResult = tlsVerifyResult
        self.proxyTLSVerifyResult = proxyTLSVerifyResult
        self.proxyErrorCode = proxyErrorCode
        self.debugLog = debugLog
    }

    /// The final response's header fields (those of the last head); empty when none arrived.
    public var headers: [HeaderField] { heads.last?.fields ?? [] }

    /// `true` when the body was cut at `maxBodyBytes`.
    public var isBodyTruncated: Bool { bodyByteCount > body.count }

    /// The value of the final response's first header field named `name` (case-insensitive).
    ///
    /// - Parameter name: a field name, e.g. `"Content-Type"`.
    /// - Returns: the value, or `nil`.
    public func headerValue(for name: String) -> String? {
        heads.last?.value(for: name)
    }
}
