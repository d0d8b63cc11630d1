import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One finished run of a program: its exit status, what it wrote, and its wall times.
public struct ProcessRun: Sendable, CustomStringConvertible {
    /// The executable's file name and the arguments, joined by spaces: for messages.
    public var command: String
    /// The arguments after the executable's name.
    public var arguments: [String]
    /// The exit status, or the signal number when ``signalled``.
    public var status: Int32
    /// Whether a signal ended the run (then ``status`` is its number).
    public var signalled: Bool
    /// The bytes the run wrote on standard output.
    public var standardOutput: Data
    /// The bytes the run wrote on standard error.
    public var standardError: Data
    /// Wall time from the start to the exit.
    public var elapsed: Duration
    /// Wall time from the interrupting signal to the exit, when one was sent.
    public var afterInterrupt: Duration?
    /// Whether the run outlived its limit and was killed with SIGKILL.
    public var killed: Bool

    /// Standard output as UTF-8 (invalid bytes replaced).
    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 (invalid bytes replaced).
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }
    /// Everything the run printed, standard output first: for greps.
    public var output: String { stdout + stderr }

    /// The command, how it ended, its wall time and both outputs: for test failure messages.
    public var summary: String {
        "\(command) -> \(signalled ? "signal" : "status") \(status) in \(elapsed)\(killed ? " (killed)" : "")"
            + "\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)"
    }

    /// The ``summary``, so that `"\(run)"` in a message says everything.
    public var description: String { summary }

    /// Runs a program to its end, waiting on a Dispatch thread, never on the Swift concurrency
    /// pool: with many tests spawning at once that pool is busy, and a wait there would add to
    /// the measured wall time.
    ///
    /// - Parameters:
    ///   - executable: the program's file.
    ///   - arguments: the arguments after its name.
    ///   - environment: its whole environment, nothing of the test process's inherited; the test
    ///     process's own when `nil`.
    ///   - directory: its current directory; the test process's when `nil`.
    ///   - input: the bytes on its standard input; `/dev/null` when `nil`.
    ///   - interruptAfter: when set, `signal` is sent this long after the start, unless it has exited.
    ///   - signal: the signal `interruptAfter` sends, SIGINT by default.
    ///   - limit: the run is killed (SIGKILL) when it lives longer than this.
    /// - Returns: the exit status, outputs and wall times. A killed run returns too, with ``killed`` set.
    /// - Throws: the error of `Process.run()` when the program cannot start, or a file error of
    ///   the scratch folder that holds its outputs.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
        input: Data? = nil, interruptAfter: Duration? = nil, signal: Int32 = SIGINT, limit: Duration
    ) async throws -> ProcessRun {
        let child = try TimedChild(executable, arguments, environment: environment, directory: directory, input: input)
        return try await withCheckedThrowingContinuation { continuation in
            child.start(interruptAfter: interruptAfter, signal: signal, limit: limit) { continuation.resume(with: $0) }
        }
    }

    /// Runs a program to its end, blocking the calling thread: the synchronous form of the
    /// `async` `run` above, with the same parameters, result and errors.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
        input: Data? = nil, interruptAfter: Duration? = nil, signal: Int32 = SIGINT, limit: Duration
    ) throws -> ProcessRun {
        let child = try TimedChild(executable, arguments, environment: environment, directory: directory, input: input)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        child.start(interruptAfter: interruptAfter, signal: signal, limit: limit) { result in
            outcome.set(result)
            finished.signal()
        }
        finished.wait()
        return try outcome.get()
    }

    /// The executable `name` that SwiftPM built: next to the test bundle (`.build/debug`), or in
    /// the package's `.build/debug`.
    ///
    /// - Throws: ``TestSupportError/noBuiltExecutable(_:)`` when no such executable file exists.
    public static func builtExecutable(_ name: String = "stagebuild") throws -> URL {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        var candidates: [URL] = []
        for folder in folders {
            var current = folder
            for _ in 0..<4 {
                candidates.append(current.appendingPathComponent(name))
                current.deleteLastPathComponent()
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name))
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
        guard let found else { throw TestSupportError.noBuiltExecutable(name) }
        return found
    }

    /// The package root, found from this file's path (`Tests/TestSupport/ProcessRun.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

/// A failure of a test helper itself, not of the code under test.
public enum TestSupportError: Error, CustomStringConvertible {
    /// No built executable of this name was found.
    case noBuiltExecutable(String)
    /// A socket or pipe call failed: the call's name and `errno`.
    case socket(String, Int32)
    /// A ``BackgroundProcess`` printed no whole line on an output (named): none came within the
    /// time given, or, when that is `nil`, the output ended first. The process's summary follows.
    case noLine(String, within: Duration?, String)

    /// What failed, in words.
    public var description: String {
        switch self {
        case .noBuiltExecutable(let name): "no built \(name) next to the test bundle; run swift build first"
        case .socket(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .noLine(let output, let timeout?, let summary): "no line on \(output) within \(timeout):\n\(summary)"
        case .noLine(let output, nil, let summary): "\(output) ended without a line:\n\(summary)"
        }
    }
}

/// The result handed from a termination handler to a blocked caller.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<ProcessRun, Error>?

    func set(_ result: Result<ProcessRun, Error>) { lock.withLock { self.result = result } }

    func get() throws -> ProcessRun {
        guard let result = lock.withLock({ self.result }) else { preconditionFailure("read before the run ended") }
        return try result.get()
    }
}

/// A child process started, signalled and timed on Dispatch threads, its outputs in files (a
/// pipe nobody reads would stop a chatty child).
private final class TimedChild: @unchecked Sendable {
    private let process = Process()
    private let folder: Scratch
    private let out: FileHandle
    private let err: FileHandle
    private let command: String
    private let arguments: [String]
    private let lock = NSLock()
    private var startInstant = ContinuousClock.now
    private var interruptInstant: ContinuousClock.Instant?
    private var wasKilled = false
    private var hasEnded = false

    init(_ executable: URL, _ arguments: [String], environment: [String: String]?, directory: URL?, input: Data?) throws {
        folder = try Scratch(prefix: "process-run")
        try folder.write("", to: "stdout")
        try folder.write("", to: "stderr")
        out = try FileHandle(forWritingTo: folder.url.appendingPathComponent("stdout"))
        err = try FileHandle(forWritingTo: folder.url.appendingPathComponent("stderr"))
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        self.arguments = arguments
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        if let input {
            try input.write(to: folder.url.appendingPathComponent("stdin"))
            process.standardInput = try FileHandle(forReadingFrom: folder.url.appendingPathComponent("stdin"))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = out
        process.standardError = err
    }

    /// Starts the process; `finish` gets the finished run, or the error that kept it from starting.
    func start(
        interruptAfter: Duration?, signal: Int32, limit: Duration,
        finish: @escaping @Sendable (Result<ProcessRun, Error>) -> Void
    ) {
        process.terminationHandler = { [self] _ in
            let end = ContinuousClock.now
            lock.withLock { hasEnded = true }
            ChildSlots.shared.release()
            finish(Result { try finished(at: end) })
        }
        ChildSlots.shared.acquire { [self] in
            lock.withLock { startInstant = .now }
            do {
                try process.run()
            } catch {
                ChildSlots.shared.release()
                finish(.failure(error))
                return
            }
            if let interruptAfter {
                send(signal, after: interruptAfter) { $0.interruptInstant = .now }
            }
            send(SIGKILL, after: limit) { $0.wasKilled = true }
        }
    }

    private func finished(at end: ContinuousClock.Instant) throws -> ProcessRun {
        try out.close()
        try err.close()
        let (started, interrupted, killed) = lock.withLock { (startInstant, interruptInstant, wasKilled) }
        return ProcessRun(
            command: command, arguments: arguments, status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            standardOutput: try Data(contentsOf: folder.url.appendingPathComponent("stdout")),
            standardError: try Data(contentsOf: folder.url.appendingPathComponent("stderr")), elapsed: end - started,
            afterInterrupt: interrupted.map { end - $0 }, killed: killed)
    }

    /// Sends `number` to the process after `delay` unless it has exited; `record` runs under the lock.
    private func send(_ number: Int32, after delay: Duration, record: @escaping @Sendable (TimedChild) -> Void) {
        let pid = process.processIdentifier
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            lock.withLock {
                guard !hasEnded else { return }
                kill(pid, number)
                record(self)
            }
        }
    }
}

/// The children one test process runs at once. Swift Testing starts every test together: without
/// a bound, a hundred end-to-end tests start two hundred `stagebuild` processes on two cores at
/// the same moment, and a probe's own timer (`--max-time 2`) fires seconds late for want of the
/// CPU, failing checks of time that are right. A child waits for a slot before it starts, and
/// its wall time counts from its start, so the wait is never measured.
private final class ChildSlots: @unchecked Sendable {
    /// Four children per processor: most of an end-to-end test's children wait on a server, not
    /// on the CPU.
    static let shared = ChildSlots(limit: max(4, 4 * ProcessInfo.processInfo.activeProcessorCount))

    private let lock = NSLock()
    private let limit: Int
    private var running = 0
    private var waiting: [@Sendable () -> Void] = []

    init(limit: Int) { self.limit = limit }

    /// Runs `start` on a Dispatch thread once fewer than the limit run; each call is matched by
    /// one ``release()`` when its child has ended or failed to start.
    func acquire(_ start: @escaping @Sendable () -> Void) {
        let now = lock.withLock {
            guard running < limit else {
                waiting.append(start)
                return false
            }
            running += 1
            return true
        }
        if now { DispatchQueue.global().async(execute: start) }
    }

    /// Frees a slot, handing it to the longest waiting start.
    func release() {
        let next: (@Sendable () -> Void)? = lock.withLock {
            guard !waiting.isEmpty else {
                running -= 1
                return nil
            }
            return waiting.removeFirst()
        }
        if let next { DispatchQueue.global().async(execute: next) }
    }
}
