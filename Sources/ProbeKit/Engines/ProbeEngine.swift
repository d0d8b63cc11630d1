/// Something that makes one call and reports it: the libcurl engine (``CurlProbeEngine``,
/// the default) or the URLSession engine (``URLSessionProbeEngine``).
///
/// Engines are used from several threads at once (``ProbeRunner``): one call per thread, each
/// blocking until its call ends.
public protocol ProbeEngine: Sendable {
    /// The engine's name in reports: `"curl"` or `"urlsession"`.
    var name: String { get }
    /// The settings every call uses.
    var settings: ProbeSettings { get }

    /// Makes one call and waits for its end.
    ///
    /// - Parameters:
    ///   - request: the call to make.
    ///   - cancellation: the run's switch; when it turns on, the call ends promptly with
    ///     ``ProbeOutcome/cancelled(_:)``.
    /// - Returns: the result, never throwing: every failure is a ``ProbeOutcome/failed(_:)``.
    func probe(_ request: ProbeRequest, cancellation: ProbeCancellation) -> ProbeResult
}

/// The engines a run can use (`--engine`).
public enum ProbeEngineKind: String, Sendable, CaseIterable {
    /// libcurl driven directly: every option honoured.
    case curl
    /// FoundationNetworking's URLSession: what a Swift app on this machine sees.
    case urlsession
}
