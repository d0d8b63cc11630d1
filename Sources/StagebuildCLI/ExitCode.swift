import Foundation

/// The process exit status, following sysexits(3) as docs/DESIGN.md lists it.
public enum ExitCode: Int32, Sendable {
    /// Everything asked for was done.
    case success = 0
    /// A check failed: a probe failure, a lint finding, a stale file.
    case checkFailed = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// An input file was malformed (EX_DATAERR).
    case dataError = 65
    /// A service the command needed did not answer (EX_UNAVAILABLE).
    case unavailable = 69
    /// A bug in stagebuild (EX_SOFTWARE).
    case internalError = 70
    /// A file could not be read or written (EX_IOERR).
    case ioError = 74
    /// Hung up by SIGHUP (a closed terminal or SSH session), as shells report it (128 + 1).
    case hungUp = 129
    /// Interrupted by SIGINT, as shells report it (128 + 2).
    case interrupted = 130
    /// Stopped by SIGTERM, as shells report it (128 + 15).
    case terminated = 143

    /// The status of a run a signal stopped: 143 for SIGTERM, 129 for SIGHUP, else 130 (the
    /// three signals the commands handle; SIGINT is 130).
    ///
    /// - Parameter signal: The signal's number.
    init(signal: Int32) {
        self = signal == SIGTERM ? .terminated : signal == SIGHUP ? .hungUp : .interrupted
    }
}
