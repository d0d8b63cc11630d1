import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One run of a program: exit status and output, killed when it outlives its limit.
struct ProcessRun: CustomStringConvertible {
    var command: String
    var status: Int32
    var stdout: String
    var stderr: String
    var killed: Bool

    var output: String { stdout + stderr }

    var description: String {
        "\(command) -> status \(status)\(killed ? " (killed)" : "")\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)"
    }

    /// The environment every run starts from: nothing inherited, so no proxy variable or
    /// `STAGEBUILD_REGISTRY_AUTH` of the machine changes a result.
    static let baseEnvironment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]

    /// The `stagebuild` executable SwiftPM built next to the test bundle.
    static func stagebuild() throws -> URL {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        for folder in folders {
            var current = folder
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent("stagebuild")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                current.deleteLastPathComponent()
            }
        }
        throw ProcessRunError.noExecutable
    }

    /// Runs a program and waits for it, at most `limit` seconds.
    static func run(
        _ executable: URL, _ arguments: [String], in directory: String, environment: [String: String] = [:],
        limit: Double = 120
    ) throws -> ProcessRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lock-e2e-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = baseEnvironment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit()
            finished.signal()
        }
        let killed = finished.wait(timeout: .now() + limit) == .timedOut
        if killed {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        try out.close()
        try err.close()
        return ProcessRun(
            command: ([executable.lastPathComponent] + arguments).joined(separator: " "), status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self), killed: killed)
    }
}

enum ProcessRunError: Error, CustomStringConvertible {
    case noExecutable

    var description: String { "no built stagebuild next to the test bundle; run swift build first" }
}
