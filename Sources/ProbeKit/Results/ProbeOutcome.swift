/// How one call ended.
public enum ProbeOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Every check passed: the response arrived and met the expectations.
    case succeeded
    /// A check failed, for this reason.
    case failed(FailureReason)
    /// The call was stopped before it finished (or before it started), for this cause.
    case cancelled(CancellationCause)

    /// `"succeeded"`, `"failed"` or `"cancelled"`: the JSON report's `outcome` field.
    public var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// The failure reason, or `nil` unless ``failed(_:)``.
    public var failureReason: FailureReason? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    /// The same as ``name``.
    public var description: String { name }
}
