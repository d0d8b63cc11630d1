/// What the probe learnt about the target's TLS certificate and its checks.
///
/// When chain verification fails, OpenSSL ends the handshake before libcurl can read the
/// certificate; the probe then takes a *second look* with verification off
/// (`CURLOPT_SSL_VERIFYPEER` and `CURLOPT_SSL_VERIFYHOST` 0, `CURLOPT_CERTINFO` 1, no request
/// headers of the user) to name the subject and issuer, and says so in ``secondLook``.
public struct TLSFacts: Sendable, Equatable {
    /// Whether the chain was verified up to a trusted CA: `true` verified, `false` not verified
    /// (failed, or switched off by `--allow-invalid-certificates`), `nil` when the handshake did
    /// not get that far.
    public var chainVerified: Bool?
    /// Whether the certificate was checked to name the host: `true` it does, `false` not
    /// verified (mismatch, or `--no-validate-domain-name`), `nil` when not reached.
    public var nameVerified: Bool?
    /// The leaf's subject as OpenSSL prints it, e.g. `"CN = localhost"`.
    public var subject: String?
    /// The leaf's subject alternative names as OpenSSL prints them, e.g. `["DNS:localhost",
    /// "IP Address:127.0.0.1"]`.
    public var subjectAlternativeNames: [String]
    /// The leaf's issuer, e.g. `"CN = Test CA"`.
    public var issuer: String?
    /// The end of the leaf's validity as OpenSSL prints it, e.g. `"Jan  2 03:04:05 2026 GMT"`.
    public var notAfter: String?
    /// Whether the certificate facts come from a second look with verification off.
    public var secondLook: Bool
    /// The start of the leaf's validity as OpenSSL prints it.
    public var notBefore: String?
    /// Whole days from the call to the end of the leaf's validity (negative once expired).
    public var daysUntilExpiry: Int?
    /// The negotiated protocol version, e.g. `"TLSv1.3"` (libssl's `SSL_get_version`); `nil`
    /// when the handshake did not finish.
    public var version: String?
    /// The negotiated cipher suite in OpenSSL's name, e.g. `"TLS_AES_256_GCM_SHA384"`.
    public var cipher: String?
    /// The ALPN protocol the server chose, e.g. `"http/1.1"`.
    public var alpn: String?
    /// The earliest end of validity in the chain shown, seconds since 1970 (blackbox's
    /// `probe_ssl_earliest_cert_expiry`); `nil` when no certificate could be read.
    public var earliestExpiry: Int?
    /// The leaf's SHA-256 fingerprint in hex (blackbox's `probe_ssl_last_chain_info`
    /// `fingerprint_sha256`); `nil` when it could not be read.
    public var leafFingerprintSHA256: String?

    /// Facts.
    ///
    /// - Parameters: one per property.
    public init(
        chainVerified: Bool? = nil, nameVerified: Bool? = nil, subject: String? = nil,
        subjectAlternativeNames: [String] = [], issuer: String? = nil, notAfter: String? = nil, secondLook: Bool = false
    ) {
        self.chainVerified = chainVerified
        self.nameVerified = nameVerified
        self.subject = subject
        self.subjectAlternativeNames = subjectAlternativeNames
        self.issuer = issuer
        self.notAfter = notAfter
        self.secondLook = secondLook
    }

    /// The names a client compares with the host: the DNS and IP subject alternative names
    /// without their `DNS:`/`IP Address:` prefixes, or the subject's `CN` when there are none
    /// (RFC 6125 section 6.4.4).
    public var certificateNames: [String] {
        let names = subjectAlternativeNames.compactMap { entry -> String? in
            for prefix in ["DNS:", "IP Address:"] where entry.hasPrefix(prefix) {
                return String(entry.dropFirst(prefix.count))
            }
            return nil
        }
        if !names.isEmpty { return names }
        guard let subject, let range = subject.range(of: "CN = ") ?? subject.range(of: "CN=") else { return [] }
        let name = subject[range.upperBound...].prefix { $0 != "," && $0 != "/" }
        return name.isEmpty ? [] : [String(name)]
    }
}
