import CCrypto

/// How a git repository names objects (gitformat-pack, "object format"): SHA-1 by default,
/// SHA-256 for a repository made with `--object-format=sha256`. A file's content is named as a
/// blob: the hash of `blob SIZE` (the size in decimal), a zero byte, then its bytes. Two files
/// with one blob ID hold the same bytes, and `git ls-tree` lists a revision's blob IDs without
/// reading any file, so a working tree's files and a revision's compare by these IDs.
public enum GitObjectFormat: String, Sendable, Hashable {
    /// 40 hex digits.
    case sha1
    /// 64 hex digits.
    case sha256

    /// The blob ID of some bytes, in lower-case hex, as `git hash-object` prints it.
    ///
    /// - Parameter bytes: The file's content.
    public func blobID(of bytes: [UInt8]) -> String {
        let header = Array("blob \(bytes.count)".utf8) + [0]
        switch self {
        case .sha256:
            var hasher = SHA256Hasher()
            hasher.update(header)
            hasher.update(bytes)
            return hasher.finalize().hex
        case .sha1:
            guard let context = ccrypto_sha1_new() else {
                fatalError("OpenSSL could not create a SHA-1 context (EVP_DigestInit_ex failed)")
            }
            defer { ccrypto_sha256_free(context) }
            var digest = [UInt8](repeating: 0, count: 20)
            for part in [header, bytes] {
                let added = part.withUnsafeBytes { ccrypto_sha256_update(context, $0.baseAddress, $0.count) == 1 }
                guard added else { fatalError("OpenSSL could not hash \(part.count) bytes (EVP_DigestUpdate failed)") }
            }
            guard digest.withUnsafeMutableBufferPointer({ ccrypto_sha1_final(context, $0.baseAddress) }) == 1 else {
                fatalError("OpenSSL could not finish a SHA-1 digest (EVP_DigestFinal_ex failed)")
            }
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
        }
    }
}
