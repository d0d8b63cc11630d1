import CCrypto

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
}
