import StageKit

/// Why a command ends without doing its work: the one failure type of the commands, carrying
/// the exit status (sysexits, ``ExitCode``) and everything standard error says about it.
/// Commands and their steps throw it; ``StagebuildCommand`` writes it and exits with its
/// status, in one place: no command writes an `error:` line itself.
struct CommandFailure: Error {
    /// The exit status.
    var exitCode: ExitCode
    /// What standard error says, in order: one or more `error:` lines and `file:line:column`
    /// diagnostics.
    var reports: [Report]
    /// Text written as it is after the reports, e.g. the tail of a failed build's log.
    var detail: String
    /// Whether the command's usage line follows the report (a command line that cannot run;
    /// ``StagebuildCommand`` adds it to ``detail``).
    var showsUsage: Bool

    /// One line of a failure.
    enum Report {
        /// `error: MESSAGE`.
        case message(String)
        /// `FILE:LINE:COLUMN: error: MESSAGE`.
        case diagnostic(Diagnostic)
    }

    /// A failure.
    ///
    /// - Parameters:
    ///   - exitCode: The status.
    ///   - reports: What standard error says, in order.
    ///   - detail: Text after the reports, as it is.
    ///   - showsUsage: Whether the usage line follows.
    init(exitCode: ExitCode, reports: [Report], detail: String = "", showsUsage: Bool = false) {
        self.exitCode = exitCode
        self.reports = reports
        self.detail = detail
        self.showsUsage = showsUsage
    }

    /// A failure with one line.
    ///
    /// - Parameters:
    ///   - exitCode: The status.
    ///   - report: What standard error says.
    init(exitCode: ExitCode, report: Report) {
        self.init(exitCode: exitCode, reports: [report])
    }

    /// A command line that cannot be run: `error: MESSAGE`, then the usage line; exit 64.
    ///
    /// - Parameter message: What is wrong with it.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(exitCode: .usage, reports: [.message(message)], showsUsage: true)
    }

    /// `error: MESSAGE` with a status.
    ///
    /// - Parameters:
    ///   - exitCode: The status, e.g. 65 for bad data, 74 for a file that cannot be read.
    ///   - message: What failed.
    static func error(_ exitCode: ExitCode, _ message: String) -> CommandFailure {
        CommandFailure(exitCode: exitCode, report: .message(message))
    }

    /// An `error:` line for each message, with one status, and text after them.
    ///
    /// - Parameters:
    ///   - exitCode: The status.
    ///   - messages: What failed, one line each.
    ///   - detail: Text after them, as it is (e.g. `nothing was rewritten.`).
    static func errors(_ exitCode: ExitCode, _ messages: [String], detail: String = "") -> CommandFailure {
        CommandFailure(exitCode: exitCode, reports: messages.map(Report.message), detail: detail)
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

    /// A file that could not be written: `cannot write WHAT: REASON`, 74 (sysexits.h).
    ///
    /// - Parameters:
    ///   - what: The file as the user named it, e.g. `Dockerfile` or `stagebuild.lock`.
    ///   - error: Why the atomic write failed.
    static func unwritable(_ what: String, _ error: FileSystemError) -> CommandFailure {
        .error(.ioError, "cannot write \(what): \(error.reason)")
    }

    /// A composition error at its position: 74 when a file could not be read, else 65.
    ///
    /// - Parameter error: The error.
    init(_ error: CompositionError) {
        self.init(exitCode: error.isReadFailure ? .ioError : .dataError, report: .diagnostic(.error(error)))
    }

    /// The first report's message, for tests.
    var message: String {
        switch reports.first {
        case .message(let text)?: text
        case .diagnostic(let diagnostic)?: diagnostic.message
        case nil: ""
        }
    }

    /// Standard error's text for the failure, coloured or not (without the usage line).
    ///
    /// - Parameter color: Whether the label may be coloured.
    func rendered(color: Bool) -> String {
        reports.map { report in
            switch report {
            case .message(let text): CommandContext.errorLine(text, color: color)
            case .diagnostic(let diagnostic): diagnostic.rendered(color: color)
            }
        }.joined() + detail
    }
}
