/// Why a call was cancelled before it finished.
public enum CancellationCause: Sendable, Equatable, CustomStringConvertible {
    /// The user interrupted the run (SIGINT, Ctrl-C).
    case interrupted
    /// The terminal or session went away (SIGHUP).
    case hungUp
    /// The process was asked to stop (SIGTERM, as `timeout(1)`, `kill` and CI runners send).
    case terminated
    /// The run's overall `--deadline` ended, after this many seconds.
    case deadline(seconds: Double)
    /// The caller cancelled the run (``ProbeRunner/cancel(_:)``).
    case requested

    /// `"interrupted (SIGINT)"`, `"terminated (SIGTERM)"`, `"the --deadline of 5 s ended the run"` or `"cancelled by the caller"`.
    public var description: String {
        switch self {
        case .interrupted: "interrupted (SIGINT)"
        case .terminated: "terminated (SIGTERM)"
        case .hungUp: "hung up (SIGHUP)"
        case .deadline(let seconds): "the --deadline of \(Seconds.text(seconds)) s ended the run"
        case .requested: "cancelled by the caller"
        }
    }
}
