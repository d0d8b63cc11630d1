import CCrypto

/// What a server's own certificate says about itself that Apple's trust requirements read:
/// its extended key usage, names, key and signature, and validity period (read by libcrypto).
public struct LeafCertificateFacts: Sendable, Equatable {
    /// `true` when an extendedKeyUsage extension holds serverAuth, `false` when it lacks it,
    /// `nil` without the extension.
    public var serverAuth: Bool?
    /// How many DNS and IP names its subjectAltName holds.
    public var subjectAltNameCount: Int
    /// `"RSA"`, `"EC"`, or another key type's OpenSSL short name.
    public var keyType: String
    /// The key's size in bits.
    public var keyBits: Int
    /// The signature's digest, e.g. `"SHA256"`, `"SHA1"`; `nil` when unknown.
    public var signatureDigest: String?
    /// The validity period, seconds since 1970.
    public var notBefore: Int
    /// The validity period's end, seconds since 1970.
    public var notAfter: Int

    /// The facts of a PEM certificate; `nil` when libcrypto cannot read it.
    ///
    /// - Parameter pem: One certificate in PEM.
    public init?(pem: String) {
        let facts = ccrypto_read_leaf_facts(pem)
        guard facts.readable == 1 else { return nil }
        serverAuth = facts.server_auth < 0 ? nil : facts.server_auth == 1
        subjectAltNameCount = Int(facts.san_names)
        keyType =
            facts.key_type == EVP_PKEY_RSA
            ? "RSA" : facts.key_type == EVP_PKEY_EC ? "EC" : String(cString: OBJ_nid2sn(facts.key_type))
        keyBits = Int(facts.key_bits)
        signatureDigest = facts.signature_digest == NID_undef ? nil : String(cString: OBJ_nid2sn(facts.signature_digest))
        notBefore = Int(facts.not_before)
        notAfter = Int(facts.not_after)
    }
}
