import Foundation
import Synchronization

/// A helper program the CLI runs and waits for (gpgv, a credential helper): its standard input
/// given, both outputs kept, and a deadline after which it is stopped (SIGTERM, then SIGKILL a
/// second later), so no child can hang a command.
struct ChildProcess {
    /// What a finished child left.
    struct Result {
        /// The exit status (for a child ended by a signal, 128 + the signal).
        var status: Int32
        /// Its standard output.
        var output: [UInt8]
        /// Its standard error.
        var errorOutput: [UInt8]
    }

    /// Why a child gave no result.
    struct Failure: Error {
        /// What happened, naming the program, e.g. `gpgv did not finish within 30.0 s`.
        var reason: String
    }

    /// The program's absolute path.
    var program: String
    /// The arguments after the program name.
    var arguments: [String] = []
    /// The whole environment the child sees.
    var environment: [String: String] = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
    /// The bytes written to its standard input, which is then closed.
    var input: [UInt8] = []
    /// The longest it may run, in seconds.
    var deadline: Double

    /// Runs the child to its end or its deadline.
    ///
    /// - Returns: Its exit status and outputs.
    /// - Throws: `Failure` when it cannot start or passes its deadline.
    func run() throws(Failure) -> Result {
        let name = URL(fileURLWithPath: program).lastPathComponent
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(reason: "cannot run \(program): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        Self.running.withLock { _ = $0.insert(pid) }
        defer { Self.running.withLock { _ = $0.remove(pid) } }
        // Both outputs are drained on threads of their own, so a child that writes more than a
        // pipe holds never blocks; its input is written on another, for the same reason. Threads,
        // not Dispatch's shared pool: on a machine with few cores the pool may run the two
        // blocked readers and hold the writer back until it grows, and a child that waits for
        // the end of its input (`git cat-file --batch`) would wait with it.
        let outputs = DispatchGroup()
        let output = Mutex(Data())
        let errorOutput = Mutex(Data())
        outputs.enter()
        outputs.enter()
        Thread.detachNewThread {
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0 = data }
            outputs.leave()
        }
        Thread.detachNewThread {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorOutput.withLock { $0 = data }
            outputs.leave()
        }
        let bytes = input
        Thread.detachNewThread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(bytes))
            try? stdin.fileHandleForWriting.close()
        }
        if finished.wait(timeout: .now() + deadline) == .timedOut {
            process.terminate()
            if finished.wait(timeout: .now() + 1) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            throw Failure(reason: "\(name) did not finish within \(deadline) s")
        }
        // A grandchild that keeps a pipe open must not hold the command: a second at most.
        _ = outputs.wait(timeout: .now() + 1)
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(
            status: status, output: output.withLock { [UInt8]($0) }, errorOutput: errorOutput.withLock { [UInt8]($0) })
    }

    /// The process IDs of the children running now.
    private static let running = Mutex<Set<Int32>>([])

    /// Sends SIGTERM to every child running now (a command stopping on a signal: verify's builder).
    static func terminateAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGTERM) }
    }

    /// The first executable file named `name` in the folders of a `PATH` value, as a shell finds it.
    ///
    /// - Parameters:
    ///   - name: A program name without `/`.
    ///   - path: The `PATH` value, folders separated by `:`.
    /// - Returns: Its absolute path, or `nil` when no folder holds it.
    static func find(_ name: String, in path: String) -> String? {
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
