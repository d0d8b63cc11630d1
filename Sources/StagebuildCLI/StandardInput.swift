import Glibc

/// The process's standard input, file descriptor 0, read with read(2).
enum StandardInput {
    /// Reads up to `maximum` bytes, waiting until some arrive.
    ///
    /// - Parameter maximum: the most bytes to read, at least 1.
    /// - Returns: the bytes; empty at end of input or when it cannot be read (`EBADF` for a
    ///   closed descriptor, `EIO`), which a reader of targets treats alike.
    @Sendable static func read(_ maximum: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, count in
            while true {
                let result = Glibc.read(0, buffer.baseAddress, buffer.count)
                if result < 0 && errno == EINTR { continue }
                count = max(0, result)
                return
            }
        }
    }

    /// Whether descriptor 0 is anything but a regular file (fstat(2)); a closed one counts as a
    /// file, which reads as empty.
    static var isStream: Bool {
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        return status.st_mode & S_IFMT != S_IFREG
    }
}
