/// One call of a run has ended: for a progress line.
public struct ProbeProgress: Sendable {
    /// Calls ended so far, this one included.
    public var completed: Int
    /// Calls in the run.
    public var total: Int
    /// The call that just ended.
    public var result: ProbeResult
}
