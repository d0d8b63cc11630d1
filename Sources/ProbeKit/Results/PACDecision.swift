import Curl

/// How a PAC script routed one request: its answer, and each entry in order with what came of
/// it (the entries a device tried and left, the one that ended the call, those never tried).
public struct PACDecision: Sendable, Equatable {
    /// Where the script came from: a path, or its URL without user info.
    public var script: String
    /// The script's answer as it returned it, e.g. `"PROXY a:3128; DIRECT"`.
    public var answer: String
    /// The pieces of the answer that could not be read and were skipped.
    public var unreadable: [String]
    /// Every entry of the answer, in order.
    public var entries: [PACAttempt]

    /// A decision.
    ///
    /// - Parameters: one per property.
    public init(script: String, answer: String, unreadable: [String], entries: [PACAttempt]) {
        self.script = script
        self.answer = answer
        self.unreadable = unreadable
        self.entries = entries
    }

    /// The entry that ended the call, carrying it or failing it; `nil` when none was tried.
    public var final: PACAttempt? { entries.last { $0.state != .notTried } }

    /// The decision with the user info of any URL in its texts removed (the answer is the
    /// script's, the failures' words partly libcurl's).
    func redacted() -> PACDecision {
        var copy = self
        copy.answer = PACAnswer.shown(answer)
        copy.unreadable = unreadable.map(PACAnswer.shown)
        for index in copy.entries.indices {
            copy.entries[index].failure?.message = Redaction.text(entries[index].failure?.message ?? "")
        }
        return copy
    }
}

/// One entry of a PAC answer and what came of it.
public struct PACAttempt: Sendable, Equatable {
    /// What came of an entry.
    public enum State: String, Sendable, Equatable {
        /// The call went this way and ended here, succeeded or failed (the result says which).
        case ended
        /// Tried and left for the next entry: the failure is one devices fail over on.
        case failedOver
        /// Never tried: an entry before it ended the call.
        case notTried
        /// Being tried when the run was cancelled (`--deadline`, a signal): it carried nothing.
        case cancelled
    }

    /// The entry.
    public var entry: PACEntry
    /// What came of it.
    public var state: State
    /// The failure that made the device leave it (``State/failedOver``) or that ended the call
    /// there (``State/ended``), with the same reason, hop and Apple error as a call through that
    /// proxy alone; `nil` for an entry that carried the call or was not tried.
    public var failure: FailureReason?
    /// The proxy's answer to CONNECT on this entry, when there was one.
    public var connectStatus: Int?
    /// The address this entry's connection reached, when it did.
    public var remoteAddress: String?

    /// An entry's fate.
    ///
    /// - Parameters: one per property.
    public init(
        entry: PACEntry, state: State, failure: FailureReason? = nil, connectStatus: Int? = nil, remoteAddress: String? = nil
    ) {
        self.entry = entry
        self.state = state
        self.failure = failure
        self.connectStatus = connectStatus
        self.remoteAddress = remoteAddress
    }
}
