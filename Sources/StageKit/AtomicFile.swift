import Foundation

/// Writes a file so that readers see the old content or the new, never a part: the text goes
/// to a temporary file in the same folder, is flushed, then renamed over the target.
///
/// The target's permission bits are kept (a new file gets 0666 less the umask, as `open(2)`
/// would give it); a symbolic link is followed and its target replaced, the link kept; a
/// device or FIFO (e.g. `/dev/stdout`) is written to in place, never replaced. SIGINT, SIGTERM
/// and SIGHUP are held back while the temporary file exists, so none is ever left behind.
/// ``LocalFileSystem/write(_:to:)`` writes through it.
enum AtomicFile {
    /// A file that could not be written; the target is untouched.
    typealias Failure = FileSystemError

    /// - Parameters:
    ///   - text: The new content.
    ///   - path: The absolute target path.
    /// - Returns: False when the file already held exactly this text (it is left as is).
    /// - Throws: `Failure` naming the path and the system's reason.
    @discardableResult
    static func write(_ text: String, to path: String) throws(Failure) -> Bool {
        let data = Data(text.utf8)
        var target = path
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else { throw Failure(path: path, reason: "symbolic link to a missing file") }
            target = String(cString: resolved)
            free(resolved)
        }
        var mode: mode_t
        if stat(target, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                if let existing = FileManager.default.contents(atPath: target), existing == data { return false }
                mode = status.st_mode & 0o7777
            case S_IFDIR:
                throw Failure(path: path, reason: "is a directory")
            default:
                try writeInPlace(data, to: target)
                return true
            }
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        try withTerminationSignalsHeld { () throws(Failure) in try replace(target, with: data, mode: mode) }
        return true
    }

    /// Writes to a device or FIFO, which cannot be replaced by renaming.
    private static func writeInPlace(_ data: Data, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        if let reason = writeAll(data, to: descriptor) { throw Failure(path: path, reason: reason) }
    }

    private static func replace(_ path: String, with data: Data, mode: mode_t) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array((directory + "/.\((path as NSString).lastPathComponent).stagebuild-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = writeAll(data, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: failure)
        }
    }

    /// Writes every byte, retrying short writes and EINTR; the system's reason on failure.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP blocked; a signal that arrives meanwhile
    /// is delivered when they are unblocked, after the temporary file is gone.
    private static func withTerminationSignalsHeld(_ body: () throws(Failure) -> Void) throws(Failure) {
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, number) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try body()
    }
}
