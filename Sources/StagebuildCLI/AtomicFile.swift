import Foundation

/// Writes a file so that readers see the old content or the new, never a part: the text goes
/// to a temporary file in the same folder, is flushed, then renamed over the target.
enum AtomicFile {
    /// A file that could not be written; the target is untouched.
    struct Failure: Error {
        var path: String
        var reason: String
    }

    /// - Parameters:
    ///   - text: The new content.
    ///   - path: The absolute target path.
    /// - Returns: False when the file already held exactly this text (it is left as is).
    /// - Throws: `Failure` naming the path and the system's reason.
    @discardableResult
    static func write(_ text: String, to path: String) throws(Failure) -> Bool {
        let data = Data(text.utf8)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return false }
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array((directory + "/.\((path as NSString).lastPathComponent).stagebuild-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, fchmod(descriptor, 0o644) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: failure)
        }
        return true
    }
}
