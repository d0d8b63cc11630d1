import StageKit

/// Why a command ends without doing its work: the one failure type of the commands, carrying
/// the exit status (sysexits, ``ExitCode``) and what standard error says. Commands and their
/// steps throw or return it; ``StagebuildCommand`` writes it and exits with its status, in one
/// place.
struct CommandFailure: Error {
    /// The exit status.
    var exitCode: ExitCode
    /// What standard error says: an `error:` line, a `file:line:column` diagnostic, or nothing
    /// when the failure was already reported where it happened.
    var report: Report
    /// Whether the command's usage line follows the report (a command line that cannot run).
    var showsUsage: Bool

    /// What a failure prints.
    enum Report {
        /// `error: MESSAGE`.
        case message(String)
        /// `FILE:LINE:COLUMN: error: MESSAGE`.
        case diagnostic(Diagnostic)
        /// Nothing more: already on standard error.
        case reported
    }

    /// A failure.
    ///
    /// - Parameters:
    ///   - exitCode: The status.
    ///   - report: What standard error says.
    ///   - showsUsage: Whether the usage line follows.
    init(exitCode: ExitCode, report: Report, showsUsage: Bool = false) {
        self.exitCode = exitCode
        self.report = report
        self.showsUsage = showsUsage
    }

    /// A command line that cannot be run: `error: MESSAGE`, then the usage line; exit 64.
    ///
    /// - Parameter message: What is wrong with it.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(exitCode: .usage, report: .message(message), showsUsage: true)
    }

    /// A failure already written to standard error; only its status is left to give.
    ///
    /// - Parameter exitCode: The status.
    static func reported(_ exitCode: ExitCode) -> CommandFailure {
        CommandFailure(exitCode: exitCode, report: .reported)
    }

    /// `error: MESSAGE` with a status.
    ///
    /// - Parameters:
    ///   - exitCode: The status, e.g. 65 for bad data, 74 for a file that cannot be read.
    ///   - message: What failed.
    static func error(_ exitCode: ExitCode, _ message: String) -> CommandFailure {
        CommandFailure(exitCode: exitCode, report: .message(message))
    }

    /// A file that cannot be read, the one wording and status for every command: `cannot
    /// read WHAT: REASON`, 65 when it was read but is not UTF-8 text, else 74 (sysexits.h).
    ///
    /// - Parameters:
    ///   - what: The file as the user named it, e.g. `--cacert ca.pem` or `Stagefile`.
    ///   - error: The file system's error.
    static func unreadable(_ what: String, _ error: FileSystemError) -> CommandFailure {
        .error(error.isMalformedText ? .dataError : .ioError, "cannot read \(what): \(error.reason)")
    }

    /// A composition error at its position: 74 when a file could not be read, else 65.
    ///
    /// - Parameter error: The error.
    init(_ error: CompositionError) {
        self.init(exitCode: error.isReadFailure ? .ioError : .dataError, report: .diagnostic(.error(error)))
    }

    /// The message, for the usage case and for tests.
    var message: String {
        switch report {
        case .message(let text): text
        case .diagnostic(let diagnostic): diagnostic.message
        case .reported: ""
        }
    }

    /// Standard error's text for the failure, coloured or not (without the usage line).
    ///
    /// - Parameter color: Whether the label may be coloured.
    func rendered(color: Bool) -> String {
        switch report {
        case .message(let text): CommandContext.errorLine(text, color: color)
        case .diagnostic(let diagnostic): diagnostic.rendered(color: color)
        case .reported: ""
        }
    }
}
