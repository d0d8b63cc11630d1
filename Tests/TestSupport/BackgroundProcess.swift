import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A long-running child process a test starts and stops: a server that prints its address or
/// port first and serves until it is told to stop.
///
/// Both outputs are read as they come, on threads of their own (a pipe nobody reads would stop a
/// chatty child), and kept for ``line(from:within:)`` and failure messages. Standard input is a
/// pipe this object holds open until ``stop(signal:grace:)``: a child that serves until the end
/// of its input (the Python servers of the tests) ends then, and also when the test process dies.
///
/// The child is stopped when the last reference goes, so a failing test leaves none behind. Swift
/// may release an object after its last use, so a test keeps the child for as long as it needs
/// it by using the object at the end, as `defer { server.stop() }` does.
public final class BackgroundProcess: @unchecked Sendable, CustomStringConvertible {
    /// One of the child's two outputs.
    public enum Output: Sendable, CustomStringConvertible {
        /// Its standard output.
        case standardOutput
        /// Its standard error.
        case standardError

        /// Its name, for messages.
        public var description: String {
            switch self {
            case .standardOutput: "standard output"
            case .standardError: "standard error"
            }
        }
    }

    /// The executable's file name and the arguments, joined by spaces: for messages.
    public let command: String
    /// The child's process id.
    public let processIdentifier: Int32

    private let process: Process
    private let shared: SharedState
    private let readers: [Output: Int32]

    /// Starts `executable` with `arguments` and returns once it runs; it does not wait for any
    /// output.
    ///
    /// - Parameters:
    ///   - executable: the program's file.
    ///   - arguments: the arguments after its name.
    ///   - environment: its whole environment, nothing of the test process's inherited; the test
    ///     process's own when `nil`.
    ///   - directory: its current directory; the test process's when `nil`.
    /// - Throws: ``TestSupportError/socket(_:_:)`` (naming `pipe2`) when a pipe cannot be made, or
    ///   the error of `Process.run()` when the program cannot start.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) throws {
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        // Close-on-exec, so that no other child a test starts meanwhile holds an end open and
        // hides the end of an input or output; Process duplicates the child's ends onto its 0, 1
        // and 2 without the flag.
        var ends: [Int32] = []
        do {
            for _ in 0..<3 { ends += try Self.pipe() }
        } catch {
            for descriptor in ends { close(descriptor) }
            throw error
        }
        let input = (read: ends[0], write: ends[1])
        let output = (read: ends[2], write: ends[3])
        let errorOutput = (read: ends[4], write: ends[5])
        let childEnds = [input.read, output.write, errorOutput.write]
        let shared = SharedState()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle(fileDescriptor: input.read, closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: output.write, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: errorOutput.write, closeOnDealloc: false)
        process.terminationHandler = { _ in shared.changing { shared.exited = true } }
        do {
            try process.run()
        } catch {
            for descriptor in ends { close(descriptor) }
            throw error
        }
        for descriptor in childEnds { close(descriptor) }
        shared.changing { shared.input = input.write }
        self.process = process
        self.shared = shared
        processIdentifier = process.processIdentifier
        readers = [.standardOutput: output.read, .standardError: errorOutput.read]
        for (stream, descriptor) in readers {
            Thread { Self.read(descriptor, into: stream, of: shared) }.start()
        }
    }

    deinit {
        // A short grace: the test is over, and a child that has not stopped by now is stuck.
        stop(grace: .seconds(2))
        for stream in readers.keys { stopReading(stream) }
    }

    /// The next line `stream` prints, the ones returned before skipped: the bytes up to the next
    /// newline, decoded as UTF-8 (invalid bytes replaced), without the newline.
    ///
    /// - Parameters:
    ///   - stream: the output to read, standard output by default.
    ///   - timeout: how long to wait for the newline.
    /// - Throws: ``TestSupportError/noLine(_:within:_:)`` when the newline has not come within
    ///   `timeout`, or the stream ended (the child exited, or closed it) without one; the error
    ///   carries the ``summary``.
    public func line(from stream: Output = .standardOutput, within timeout: Duration) throws -> String {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        return try shared.locked {
            while true {
                let bytes = shared.bytes[stream, default: []]
                let start = shared.consumed[stream, default: 0]
                if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    shared.consumed[stream] = newline + 1
                    return String(decoding: bytes[start..<newline], as: UTF8.self)
                }
                if shared.ended.contains(stream) {
                    throw TestSupportError.noLine("\(stream)", within: nil, lockedSummary())
                }
                guard shared.condition.wait(until: deadline) || Date() < deadline else {
                    throw TestSupportError.noLine("\(stream)", within: timeout, lockedSummary())
                }
            }
        }
    }

    /// Everything the child has printed on standard output so far, as UTF-8 (invalid bytes
    /// replaced); complete once ``stop(signal:grace:)`` has returned.
    public var standardOutput: String { text(of: .standardOutput) }

    /// Everything the child has printed on standard error so far, as UTF-8 (invalid bytes
    /// replaced); complete once ``stop(signal:grace:)`` has returned.
    public var standardError: String { text(of: .standardError) }

    /// The command, its process id, whether it runs or how it ended, and both outputs so far:
    /// for test failure messages.
    public var summary: String { shared.locked { lockedSummary() } }

    /// The ``summary``, so that `"\(server)"` in a message says everything.
    public var description: String { summary }

    /// Stops reading `stream` and closes this end of its pipe, as a reader that goes away: the
    /// child's later writes to it fail (EPIPE, or SIGPIPE when it does not ignore that). What was
    /// read before stays in ``standardOutput`` or ``standardError``. Returns within about 0.1 s.
    public func stopReading(_ stream: Output) {
        guard let descriptor = readers[stream] else { return }
        let finished = shared.locked { () -> Bool in
            guard !shared.closing.contains(stream) else { return false }
            shared.closing.insert(stream)
            // The reader polls in steps of 0.1 s; 5 s only bounds the wait for a thread that
            // never got to run.
            let deadline = Date().addingTimeInterval(5)
            while !shared.ended.contains(stream) && shared.condition.wait(until: deadline) {}
            return shared.ended.contains(stream)
        }
        // A reader still running would read whatever file reuses the descriptor: leave it open.
        if finished { close(descriptor) }
    }

    /// Stops the child: closes its standard input, sends `signal`, and waits up to `grace` for it
    /// to exit; one still running then gets SIGKILL. A child that blocks or ignores `signal` (a
    /// child of a test thread may inherit that thread's blocked signals, SIGTERM among them) is
    /// killed so. After the exit it waits up to 1 s more for the ends of both outputs, so that
    /// ``standardOutput`` and ``standardError`` are complete. Calling it again, or on a child that
    /// has already exited, sends nothing and returns the same.
    ///
    /// - Parameters:
    ///   - signal: the signal that asks it to stop, SIGTERM by default.
    ///   - grace: how long it has to exit after `signal`, 10 s by default.
    /// - Returns: its exit status, or the number of the signal that ended it; `nil` when it
    ///   outlived `grace` and was killed.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, grace: Duration = .seconds(10)) -> Int32? {
        let (exited, killed) = shared.locked { () -> (Bool, Bool) in
            if shared.input >= 0 {
                close(shared.input)
                shared.input = -1
            }
            if !shared.exited && !shared.signalled {
                shared.signalled = true
                kill(processIdentifier, signal)
                let deadline = Date().addingTimeInterval(grace.seconds)
                while !shared.exited && shared.condition.wait(until: deadline) {}
                if !shared.exited {
                    kill(processIdentifier, SIGKILL)
                    shared.killed = true
                }
            }
            // SIGKILL cannot be refused; the bound is for a child stuck in the kernel.
            let exitDeadline = Date().addingTimeInterval(10)
            while !shared.exited && shared.condition.wait(until: exitDeadline) {}
            let outputsDeadline = Date().addingTimeInterval(1)
            while shared.ended.count < readers.count && shared.condition.wait(until: outputsDeadline) {}
            return (shared.exited, shared.killed)
        }
        return exited && !killed ? process.terminationStatus : nil
    }

    private func text(of stream: Output) -> String {
        shared.locked { String(decoding: shared.bytes[stream, default: []], as: UTF8.self) }
    }

    /// The ``summary``, for a caller that holds the lock.
    private func lockedSummary() -> String {
        let condition =
            if !shared.exited {
                "running"
            } else if shared.killed {
                "killed after the grace period"
            } else if process.terminationReason == .uncaughtSignal {
                "ended by signal \(process.terminationStatus)"
            } else {
                "exited with status \(process.terminationStatus)"
            }
        return "\(command) (pid \(processIdentifier), \(condition))"
            + "\n--- stdout\n\(String(decoding: shared.bytes[.standardOutput, default: []], as: UTF8.self))"
            + "\n--- stderr\n\(String(decoding: shared.bytes[.standardError, default: []], as: UTF8.self))"
    }

    /// A pipe whose ends are closed on exec: its read end, then its write end.
    private static func pipe() throws -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard let pipe2 = Self.pipe2, pipe2(&ends, O_CLOEXEC) == 0 else {
            throw TestSupportError.socket("pipe2", errno)
        }
        return ends
    }

    /// glibc's `pipe2`, which its headers declare only for `_GNU_SOURCE`: with `pipe` and then
    /// `fcntl`, a child started on another thread in between would inherit the ends.
    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
    }()

    /// Reads `descriptor` into the shared state until the end of the stream, a read error, or
    /// ``stopReading(_:)``; polls in steps of 0.1 s so that the last is seen with nothing to read.
    private static func read(_ descriptor: Int32, into stream: Output, of shared: SharedState) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !shared.locked({ shared.closing.contains(stream) }) {
            var readable = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&readable, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            shared.changing { shared.bytes[stream, default: []] += buffer[..<count] }
        }
        shared.changing { shared.ended.insert(stream) }
    }
}

/// The state a ``BackgroundProcess`` shares with its reader threads and its termination
/// handler. Read and written only under ``condition``'s lock, which every change broadcasts.
private final class SharedState: @unchecked Sendable {
    let condition = NSCondition()
    /// The bytes read from each output.
    var bytes: [BackgroundProcess.Output: [UInt8]] = [:]
    /// How many of them ``BackgroundProcess/line(from:within:)`` has returned.
    var consumed: [BackgroundProcess.Output: Int] = [:]
    /// The outputs whose reader has finished.
    var ended: Set<BackgroundProcess.Output> = []
    /// The outputs whose reader is asked to finish.
    var closing: Set<BackgroundProcess.Output> = []
    /// The write end of the child's standard input; -1 once closed.
    var input: Int32 = -1
    /// Whether the termination handler has run.
    var exited = false
    /// Whether ``BackgroundProcess/stop(signal:grace:)`` has sent its signal.
    var signalled = false
    /// Whether it had to send SIGKILL.
    var killed = false

    /// Runs `body` under the lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Runs `body` under the lock and wakes every waiter.
    func changing(_ body: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        body()
        condition.broadcast()
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
