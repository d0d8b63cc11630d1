import CCrypto
import Foundation

/// The certificates of a PEM file, read by OpenSSL's libcrypto (`PEM_read_bio_X509`) as
/// libcurl reads `--cacert` (CURLOPT_CAINFO): a file OpenSSL cannot read fails every TLS call,
/// so it is refused before any call, naming the certificate.
public enum PEMCertificates {
    /// A PEM certificate OpenSSL cannot read.
    public struct Unreadable: Error, Sendable, Hashable {
        /// The 1-based number of the certificate in the file.
        public var number: Int
    }

    /// Counts the certificates in PEM text.
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Returns: How many certificates it holds (0 when it has no BEGIN line).
    /// - Throws: ``Unreadable`` for the first certificate whose base64 or DER is damaged.
    public static func count(in bytes: [UInt8]) throws(Unreadable) -> Int {
        var failing = 0
        let count = bytes.withUnsafeBytes { buffer in
            ccrypto_pem_certificate_count(buffer.baseAddress, Int32(clamping: buffer.count), &failing)
        }
        guard count >= 0 else { throw Unreadable(number: failing + 1) }
        return count
    }

    /// The PEM blocks of a text, each from its BEGIN line to its END line.
    ///
    /// - Parameter text: PEM text, e.g. a CA file.
    /// - Returns: Each block with its BEGIN and END lines.
    public static func blocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-----BEGIN ") { current = [] }
            current.append(line)
            if line.hasPrefix("-----END ") { blocks.append(current.joined(separator: "\n") + "\n") }
        }
        return blocks
    }

    /// The SHA-256 fingerprint of a PEM certificate: the digest of its DER bytes, in lower-case
    /// hex, as `openssl x509 -fingerprint -sha256` (without colons) and Go's
    /// `sha256.Sum256(cert.Raw)` give it.
    ///
    /// - Parameter pem: One certificate in PEM.
    /// - Returns: 64 hex digits; `nil` when its base64 does not decode.
    public static func fingerprintSHA256(of pem: String) -> String? {
        let body = pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        guard !body.isEmpty, let der = Data(base64Encoded: body) else { return nil }
        return SHA256Digest(of: der).hex
    }
}
