import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `stagebuild` executable as a user would, with a clean environment (no proxy
/// variables leak in from the test's own), and bounds every wait.
enum StagebuildProcess {
    /// What one run produced.
    struct Run: Sendable {
        var arguments: [String]
        /// The exit status, or the signal number when ``signalled``.
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
        /// Wall time from start to exit.
        var elapsed: Duration
        /// Wall time from the SIGINT to exit, when one was sent.
        var afterInterrupt: Duration?
        /// Whether the run outlived its limit and was killed.
        var killed: Bool

        /// Everything the run printed, for greps.
        var output: String { stdout + stderr }

        /// The JSON report on stdout.
        func report() throws -> ProbeReport {
            do {
                return try JSONDecoder().decode(ProbeReport.self, from: Data(stdout.utf8))
            } catch {
                throw StagebuildProcessError.notAReport("\(error)", self)
            }
        }

        /// One line for test failure messages.
        var summary: String {
            "stagebuild \(arguments.joined(separator: " ")) -> \(signalled ? "signal" : "status") \(status) "
                + "in \(elapsed)\(killed ? " (killed)" : "")\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)"
        }
    }

    /// The `stagebuild` executable SwiftPM built next to the test bundle (`.build/debug`).
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        var candidates: [URL] = []
        for folder in folders {
            var current = folder
            for _ in 0..<4 {
                candidates.append(current.appendingPathComponent("stagebuild"))
                current.deleteLastPathComponent()
            }
        }
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
        return try #require(found, "no built stagebuild next to the test bundle; run swift build first")
    }

    /// The environment of every run: nothing inherited, so no `http_proxy` or `NO_PROXY` of the
    /// machine changes a route.
    static let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]

    /// Runs `stagebuild ARGUMENTS...`.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the executable's name.
    ///   - interruptAfter: when set, `signal` is sent this long after the start.
    ///   - signal: the signal `interruptAfter` sends, SIGINT by default.
    ///   - limit: the run is killed (SIGKILL) when it lives longer than this.
    /// - Returns: the exit status, output and wall times.
    static func run(
        _ arguments: [String], interruptAfter: Duration? = nil, signal: Int32 = SIGINT, limit: Duration = .seconds(60)
    ) async throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let child = TimedChild(process)
        let end = try await child.run(interruptAfter: interruptAfter, signal: signal, limit: limit)
        try out.close()
        try err.close()

        return Run(
            arguments: arguments, status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            elapsed: end - child.started, afterInterrupt: child.interrupted.map { end - $0 }, killed: child.killed)
    }
}

/// A child process started, signalled and timed on Dispatch threads, never on the Swift
/// concurrency pool: with many tests spawning at once that pool is busy, and a wait there would
/// add to the measured wall time.
private final class TimedChild: @unchecked Sendable {
    let process: Process
    private let lock = NSLock()
    private var startInstant = ContinuousClock.now
    private var interruptInstant: ContinuousClock.Instant?
    private var wasKilled = false
    private var hasEnded = false

    init(_ process: Process) { self.process = process }

    var started: ContinuousClock.Instant { lock.withLock { startInstant } }
    var interrupted: ContinuousClock.Instant? { lock.withLock { interruptInstant } }
    var killed: Bool { lock.withLock { wasKilled } }

    /// Starts the process and returns the instant it exited.
    func run(interruptAfter: Duration?, signal: Int32, limit: Duration) async throws -> ContinuousClock.Instant {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ContinuousClock.Instant, Error>) in
            process.terminationHandler = { [self] _ in
                let now = ContinuousClock.now
                lock.withLock { hasEnded = true }
                continuation.resume(returning: now)
            }
            DispatchQueue.global().async { [self] in
                lock.withLock { startInstant = .now }
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                if let interruptAfter {
                    send(signal, after: interruptAfter) { $0.interruptInstant = .now }
                }
                send(SIGKILL, after: limit) { $0.wasKilled = true }
            }
        }
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

enum StagebuildProcessError: Error, CustomStringConvertible {
    case notAReport(String, StagebuildProcess.Run)

    var description: String {
        switch self {
        case .notAReport(let error, let run): "stdout is not a JSON report (\(error)):\n\(run.summary)"
        }
    }
}
