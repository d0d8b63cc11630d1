import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `stagebuild` executable as a user would, with a clean environment (no proxy
/// variables leak in from the test's own), and bounds every wait.
enum StagebuildProcess {
    /// What one run produced.
    typealias Run = ProcessRun

    /// The `stagebuild` executable SwiftPM built next to the test bundle (`.build/debug`).
    static func executable() throws -> URL { try ProcessRun.builtExecutable("stagebuild") }

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
    ///   - variables: more environment variables (proxy variables, say) over ``environment``.
    /// - Returns: the exit status, output and wall times.
    static func run(
        _ arguments: [String], interruptAfter: Duration? = nil, signal: Int32 = SIGINT, limit: Duration = .seconds(60),
        variables: [String: String] = [:]
    ) async throws -> Run {
        try await ProcessRun.run(
            try executable(), arguments, environment: environment.merging(variables) { $1 }, interruptAfter: interruptAfter,
            signal: signal, limit: limit)
    }
}

extension ProcessRun {
    /// The JSON report on stdout.
    func report() throws -> ProbeReport {
        do {
            return try JSONDecoder().decode(ProbeReport.self, from: standardOutput)
        } catch {
            throw StagebuildProcessError.notAReport("\(error)", self)
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
