import CLzma

/// The xz container format (the `.xz` files of a Debian archive's `Packages.xz` indexes),
/// decoded with liblzma's stream decoder: concatenated streams are read as one, and the
/// integrity check each stream carries (CRC32, CRC64 or SHA-256) is verified by liblzma.
///
/// Source: "The .xz File Format", version 1.1.0 (tukaani.org/xz/xz-file-format.txt);
/// liblzma's `lzma/container.h`.
public enum XZ {
    /// Decompresses a whole `.xz` file.
    ///
    /// - Parameters:
    ///   - bytes: The compressed file.
    ///   - maxOutputBytes: The most decompressed bytes accepted; more is an error, so a small
    ///     file cannot expand without bound, in bytes.
    /// - Returns: The decompressed bytes.
    /// - Throws: `XZError` for data that is not xz, corrupt or truncated, fails its integrity
    ///   check, or decompresses to more than `maxOutputBytes`.
    public static func decompress(_ bytes: [UInt8], maxOutputBytes: Int) throws(XZError) -> [UInt8] {
        var stream = lzma_stream()
        // LZMA_CONCATENATED (0x08, lzma/container.h): read every stream of the file.
        let flags: UInt32 = 0x08
        guard lzma_stream_decoder(&stream, UInt64.max, flags) == LZMA_OK else {
            throw XZError("liblzma could not start a decoder (out of memory)")
        }
        defer { lzma_end(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(maxOutputBytes, bytes.count * 6))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let result: lzma_ret = bytes.withUnsafeBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = input.count
            while true {
                let code = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = buffer.count
                    return lzma_code(&stream, stream.avail_in == 0 ? LZMA_FINISH : LZMA_RUN)
                }
                let produced = chunk.count - stream.avail_out
                if output.count + produced > maxOutputBytes { return LZMA_MEMLIMIT_ERROR }
                output.append(contentsOf: chunk[..<produced])
                if code != LZMA_OK { return code }
            }
        }
        switch result {
        case LZMA_STREAM_END: return output
        case LZMA_MEMLIMIT_ERROR: throw XZError("it decompresses to more than \(maxOutputBytes) bytes")
        case LZMA_FORMAT_ERROR: throw XZError("it is not xz data")
        case LZMA_DATA_ERROR: throw XZError("its xz data is corrupt")
        case LZMA_BUF_ERROR: throw XZError("its xz data is truncated")
        default: throw XZError("liblzma failed (lzma_ret \(result.rawValue))")
        }
    }
}

/// Data that does not decompress as xz.
public struct XZError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `its xz data is corrupt`.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameter reason: What is wrong.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
