import CCrypto
import Glibc

/// What a certificate chain a server showed comes to under a trust store, checked by OpenSSL's
/// libcrypto as a client would check it (`X509_verify_cert`, `X509_check_host`): the facts
/// the probe's Apple client verdicts are decided on, whatever checks the call itself skipped.
public struct CertificateChainCheck: Sendable, Equatable {
    /// OpenSSL's verification result: 0 (`X509_V_OK`) for a chain to a trusted root with every
    /// certificate in its validity period, else an `X509_V_ERR_*` code (x509_vfy.h), e.g. 10
    /// expired, 9 not yet valid, 18 self-signed, 20 unknown issuer; -1 when the leaf is unreadable.
    public var verifyError: Int
    /// Whether the leaf names the host.
    public var hostMatches: Bool

    /// OpenSSL's words for ``verifyError`` (`X509_verify_cert_error_string`), as libcurl
    /// quotes them after "SSL certificate problem: ", e.g. `"certificate has expired"`.
    public var problem: String {
        verifyError < 0 ? "the certificate cannot be read" : String(cString: ccrypto_verify_error_string(verifyError))
    }

    /// SHA-256 of a certificate's SubjectPublicKeyInfo (DER), the hash a `sha256//` pin names.
    ///
    /// - Parameter pem: One certificate in PEM.
    /// - Returns: The digest; `nil` when libcrypto cannot read the certificate.
    public static func publicKeySHA256(pem: String) -> SHA256Digest? {
        var der: UnsafeMutablePointer<UInt8>?
        let length = ccrypto_public_key_der(pem, &der)
        guard length > 0, let der else { return nil }
        defer { CRYPTO_free(der, #file, #line) }
        return SHA256Digest(of: UnsafeBufferPointer(start: der, count: Int(length)))
    }

    /// `X509_V_ERR_CERT_NOT_YET_VALID`.
    public static let notYetValid = 9
    /// `X509_V_ERR_CERT_HAS_EXPIRED`.
    public static let expired = 10

    /// Whether a host is an IP literal (an IPv6 address without brackets, or dotted digits).
    static func isIPLiteral(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    /// Checks a chain.
    ///
    /// - Parameters:
    ///   - certificates: PEM text of each certificate, the leaf first, as the server sent them.
    ///   - caFile: A PEM file of trusted roots (`--cacert`), or `nil` for the system's store.
    ///   - host: The host the client asked for (an IP literal without brackets).
    ///   - now: The time to check validity at, in seconds since 1970.
    ///   - asTLSClient: Whether to check as libssl checks a server in a handshake: for the TLS
    ///     server purpose (`extendedKeyUsage`) and at security level 2 (Debian's default: weak
    ///     digests and short keys refused), beside trust and dates.
    /// - Returns: The check; `verifyError` -1 without a readable leaf.
    public static func check(
        certificates: [String], caFile: String?, host: String, now: Int, asTLSClient: Bool = false
    ) -> CertificateChainCheck {
        let isIP = isIPLiteral(host)
        var pointers = certificates.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let result = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                ccrypto_check_chain(base, Int32(buffer.count), caFile, host, isIP ? 1 : 0, now, asTLSClient ? 1 : 0)
            }
        }
        return CertificateChainCheck(
            verifyError: Int(result.verify_error), hostMatches: result.host_matches == 1)
    }
}
