/// What made the second build's conditions differ from the first's, as far as content can
/// show it: the values a cause is recognised by.
public struct BuildConditions: Sendable {
    /// The CPUs each build saw (`nproc`), when they differed.
    public var cpuCounts: (first: Int, second: Int)?
    /// Each build's context folder, when they differed.
    public var contextPaths: (first: String, second: String)?
    /// A value only the second build's environment held, when the environment was varied.
    public var environmentMarker: String?

    /// Conditions with the given facts.
    public init(
        cpuCounts: (first: Int, second: Int)? = nil, contextPaths: (first: String, second: String)? = nil,
        environmentMarker: String? = nil
    ) {
        self.cpuCounts = cpuCounts
        self.contextPaths = contextPaths
        self.environmentMarker = environmentMarker
    }
}
