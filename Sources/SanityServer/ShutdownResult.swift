/// What ``SanityServer/shutdown(grace:)`` had to do.
public struct ShutdownResult: Sendable, Equatable {
    /// Connections still busy when the grace period ran out, closed without their response.
    public var forcedConnectionCount: Int

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - forcedConnectionCount: Connections closed at the end of the grace period.
    public init(forcedConnectionCount: Int) {
        self.forcedConnectionCount = forcedConnectionCount
    }
}
