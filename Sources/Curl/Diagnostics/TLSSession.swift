/// What a TLS handshake agreed on, in OpenSSL's names (`SSL_get_version`,
/// `SSL_CIPHER_get_name`, `SSL_get0_alpn_selected`).
public struct TLSSession: Sendable, Equatable {
    /// The protocol version, e.g. `"TLSv1.3"`.
    public var version: String?
    /// The cipher suite, e.g. `"TLS_AES_256_GCM_SHA384"` or `"ECDHE-ECDSA-AES256-GCM-SHA384"`.
    public var cipher: String?
    /// The ALPN protocol the server chose, e.g. `"http/1.1"` or `"h2"`; `nil` without ALPN.
    public var alpn: String?

    /// A session.
    ///
    /// - Parameters: one per property.
    public init(version: String? = nil, cipher: String? = nil, alpn: String? = nil) {
        self.version = version
        self.cipher = cipher
        self.alpn = alpn
    }
}
