import CCrypto

/// SHA-256 over a message given in parts: ``update(_:)`` as often as needed, then
/// ``finalize()`` once. Owns one OpenSSL `EVP_MD_CTX`, freed when the hasher ends.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    /// A hasher with no input yet.
    ///
    /// Stops the process when OpenSSL cannot allocate a digest context, as an allocation
    /// failure anywhere else in Swift does.
    public init() {
        guard let context = ccrypto_sha256_new() else {
            fatalError("OpenSSL could not create a SHA-256 context (EVP_DigestInit_ex failed)")
        }
        self.context = context
    }

    deinit {
        ccrypto_sha256_free(context)
    }

    /// Adds the next part of the message.
    ///
    /// - Parameter bytes: The bytes, in message order.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            add(UnsafeRawBufferPointer(buffer))
            return true
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { add($0) }
        }
    }

    /// The digest of everything added; ends the hasher.
    ///
    /// - Returns: The 32-byte digest.
    public consuming func finalize() -> SHA256Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        let succeeded = bytes.withUnsafeMutableBufferPointer { ccrypto_sha256_final(context, $0.baseAddress) }
        guard succeeded == 1, let digest = SHA256Digest(bytes: bytes) else {
            fatalError("OpenSSL could not finish a SHA-256 digest (EVP_DigestFinal_ex failed)")
        }
        return digest
    }

    private func add(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        guard ccrypto_sha256_update(context, base, buffer.count) == 1 else {
            fatalError("OpenSSL could not hash \(buffer.count) bytes (EVP_DigestUpdate failed)")
        }
    }
}
