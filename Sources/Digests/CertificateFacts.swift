import CCrypto

/// What a certificate says about itself that Apple's trust requirements read: its extended key
/// usage, names, key and signature, validity period and subject (read by libcrypto).
public struct CertificateFacts: Sendable, Equatable {
    /// `true` when an extendedKeyUsage extension holds serverAuth, `false` when it lacks it,
    /// `nil` without the extension.
    public var serverAuth: Bool?
    /// Whether the extension holds anyExtendedKeyUsage (2.5.29.37.0).
    public var anyExtendedKeyUsage: Bool
    /// Whether the extension holds Microsoft's or Netscape's Server Gated Crypto purpose.
    public var serverGatedCrypto: Bool
    /// How many DNS and IP names its subjectAltName holds.
    public var subjectAltNameCount: Int
    /// `"RSA"`, `"EC"`, or another key type's OpenSSL short name.
    public var keyType: String
    /// The key's size in bits.
    public var keyBits: Int
    /// The signature's digest, e.g. `"SHA256"`, `"SHA1"`; `nil` when unknown.
    public var signatureDigest: String?
    /// The validity period's start, seconds since 1970.
    public var notBefore: Int
    /// The validity period's end, seconds since 1970.
    public var notAfter: Int
    /// Whether the certificate is its own issuer (a root, or a self-signed server certificate).
    public var selfIssued: Bool
    /// The subject as libcurl's certificate info writes it, e.g. `"CN = mitmproxy, O = mitmproxy"`.
    public var subject: String

    /// The facts of a PEM certificate; `nil` when libcrypto cannot read it.
    ///
    /// - Parameter pem: One certificate in PEM.
    public init?(pem: String) {
        var facts = ccrypto_read_certificate_facts(pem)
        guard facts.readable == 1 else { return nil }
        serverAuth = facts.server_auth < 0 ? nil : facts.server_auth == 1
        anyExtendedKeyUsage = facts.any_usage == 1
        serverGatedCrypto = facts.server_gated_crypto == 1
        subjectAltNameCount = Int(facts.san_names)
        keyType =
            facts.key_type == EVP_PKEY_RSA
            ? "RSA" : facts.key_type == EVP_PKEY_EC ? "EC" : String(cString: OBJ_nid2sn(facts.key_type))
        keyBits = Int(facts.key_bits)
        signatureDigest = facts.signature_digest == NID_undef ? nil : String(cString: OBJ_nid2sn(facts.signature_digest))
        notBefore = Int(facts.not_before)
        notAfter = Int(facts.not_after)
        selfIssued = facts.self_issued == 1
        subject = withUnsafeBytes(of: &facts.subject) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
