import CCrypto
import Glibc

/// A store of trusted roots of its own (OpenSSL's `X509_STORE`), holding only what it is given:
/// the device's roots a verdict is judged against, or this machine's default store. Built once,
/// then read from any thread (OpenSSL locks a store it verifies against).
public final class TrustStore: @unchecked Sendable {
    private let store: OpaquePointer

    /// A store of the roots in PEM files, and of this machine's default store when asked.
    ///
    /// - Parameters:
    ///   - files: PEM files whose every certificate is a trusted root; an unreadable one is skipped
    ///     (the device then simply lacks those roots).
    ///   - pems: Certificates in PEM text to trust as roots too.
    ///   - machineDefaults: Whether to add OpenSSL's default CA file and directory.
    public init(files: [String], pems: [String] = [], machineDefaults: Bool = false) {
        store = ccrypto_store_new()
        for file in files { _ = ccrypto_store_add_file(store, file) }
        for pem in pems {
            if let certificate = ccrypto_read_certificate(pem) {
                X509_STORE_add_cert(store, certificate)
                X509_free(certificate)
            }
        }
        if machineDefaults { _ = ccrypto_store_add_defaults(store) }
        ERR_clear_error()
    }

    deinit { X509_STORE_free(store) }

    /// The chain OpenSSL builds from what a server sent and this store's roots.
    public struct BuiltChain: Sendable, Equatable {
        /// OpenSSL's verification result: 0 (`X509_V_OK`), else an `X509_V_ERR_*` code as
        /// ``CertificateChainCheck/verifyError``; -1 when the leaf is unreadable.
        public var verifyError: Int
        /// Whether the chain ends at one of the store's roots.
        public var anchored: Bool
        /// The certificates of the built chain in PEM, leaf first, the store's root last when
        /// ``anchored``.
        public var certificates: [String]
    }

    /// Verifies a chain against the store.
    ///
    /// - Parameters:
    ///   - certificates: PEM text of each certificate, the leaf first, as the server sent them.
    ///   - now: The time to check validity at, in seconds since 1970.
    /// - Returns: The result and the chain built.
    public func build(certificates: [String], now: Int) -> BuiltChain {
        var pointers = certificates.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let built = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                ccrypto_build_chain(store, base, Int32(buffer.count), now)
            }
        }
        defer { free(built.chain_pem) }
        let text = built.chain_pem.map { String(cString: $0) } ?? ""
        return BuiltChain(
            verifyError: Int(built.verify_error), anchored: built.anchored == 1, certificates: PEMCertificates.blocks(in: text))
    }

    /// Whether a certificate names the host in its subjectAltName, as Apple's SSL policy reads it
    /// (no CommonName fallback).
    ///
    /// - Parameters:
    ///   - pem: The certificate.
    ///   - host: A DNS name, or an IP literal without brackets.
    public static func namesHostInSubjectAltName(pem: String, host: String) -> Bool {
        ccrypto_names_host_in_san(pem, host, CertificateChainCheck.isIPLiteral(host) ? 1 : 0) == 1
    }
}
