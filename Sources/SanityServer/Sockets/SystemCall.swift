import Glibc

/// The one door through which SanityServer makes socket system calls.
///
/// Like swift-nio's `System.swift`: a call that fails with `EINTR` is made again, and any other
/// failure becomes ``ServerError/systemCall(call:errno:)`` carrying the call's name.
enum SystemCall {
    /// Makes a system call until it does not fail with `EINTR`.
    ///
    /// - Parameters:
    ///   - name: The call's name for the error, e.g. `"accept4"`.
    ///   - retriesOnInterrupt: `false` only for `close(2)`, which must never be repeated on Linux.
    ///   - body: Makes the call once; it returns `-1` and sets `errno` on failure.
    /// - Returns: The call's non-negative result.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` with the call's name and `errno`.
    @inline(__always)
    static func run<Result: BinaryInteger>(
        _ name: String,
        retriesOnInterrupt: Bool = true,
        _ body: () -> Result
    ) throws(ServerError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR && retriesOnInterrupt { continue }
            throw .systemCall(call: name, errno: code)
        }
    }

    /// Closes a descriptor once; `EINTR` counts as closed, as Linux has released it already.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor to close; it is invalid afterwards whatever happens.
    static func close(_ descriptor: Int32) {
        do {
            _ = try run("close", retriesOnInterrupt: false) { Glibc.close(descriptor) }
        } catch {
            // EINTR and EIO leave the descriptor closed on Linux; EBADF is a bug we cannot repair here.
        }
    }

    /// Sends bytes without raising `SIGPIPE`.
    ///
    /// - Parameters:
    ///   - descriptor: A connected stream socket.
    ///   - bytes: The bytes to send from.
    ///   - offset: The index of the first byte to send.
    ///   - flags: `send(2)` flags added to `MSG_NOSIGNAL`, e.g. `MSG_DONTWAIT`.
    /// - Returns: How many bytes the kernel took.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"send"`.
    static func send(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int = 0, flags: Int32 = 0) throws(ServerError) -> Int {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ServerError) -> Int in
                try run("send") {
                    Glibc.send(
                        descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL) | flags)
                }
            }
        }
        return try result.get()
    }

    /// Receives bytes into the start of a buffer.
    ///
    /// - Parameters:
    ///   - descriptor: A connected stream socket.
    ///   - buffer: Where the bytes go; its count is the most that is read.
    ///   - flags: `recv(2)` flags, e.g. `MSG_DONTWAIT`.
    /// - Returns: How many bytes arrived; `0` when the peer closed its side.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"recv"`.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8], flags: Int32 = 0) throws(ServerError) -> Int {
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(ServerError) -> Int in
                try run("recv") { Glibc.recv(descriptor, bytes.baseAddress, bytes.count, flags) }
            }
        }
        return try result.get()
    }

    /// Waits until one of the descriptors is ready or the deadline passes.
    ///
    /// - Parameters:
    ///   - descriptors: The `pollfd` entries; their `revents` are filled in.
    ///   - timeoutMilliseconds: Computed again after every `EINTR`, so an interrupted wait keeps
    ///     its deadline; `-1` waits without limit.
    /// - Returns: How many entries are ready; `0` when the time ran out.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"poll"`.
    static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: () -> Int32) throws(ServerError) -> Int {
        let count = nfds_t(descriptors.count)
        return try descriptors.withUnsafeMutableBufferPointer { (entries) throws(ServerError) -> Int in
            Int(try run("poll") { Glibc.poll(entries.baseAddress, count, timeoutMilliseconds()) })
        }
    }

    /// Shuts down one or both directions of a socket.
    ///
    /// - Parameters:
    ///   - descriptor: A connected stream socket.
    ///   - how: `SHUT_RD`, `SHUT_WR` or `SHUT_RDWR`.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"shutdown"`.
    static func shutdown(_ descriptor: Int32, _ how: Int32) throws(ServerError) {
        _ = try run("shutdown") { Glibc.shutdown(descriptor, how) }
    }

    /// Sets an integer or struct socket option.
    ///
    /// - Parameters:
    ///   - descriptor: The socket.
    ///   - level: e.g. `SOL_SOCKET`.
    ///   - option: e.g. `SO_REUSEADDR`.
    ///   - value: The option's value, copied into the call.
    /// - Throws: ``ServerError/systemCall(call:errno:)`` named `"setsockopt"`.
    static func setOption<Value: BitwiseCopyable>(
        _ descriptor: Int32, _ level: Int32, _ option: Int32, _ value: Value
    ) throws(ServerError) {
        try withUnsafeBytes(of: value) { (bytes) throws(ServerError) in
            _ = try run("setsockopt") {
                Glibc.setsockopt(descriptor, level, option, bytes.baseAddress, socklen_t(bytes.count))
            }
        }
    }
}
