import Foundation
import ProbeKit

/// Makes one call with the curl engine and returns its result and wall time.
func probe(
    _ url: String, method: String = "GET", headers: [RequestHeader] = [], expectations: Expectations = .default,
    settings: ProbeSettings = ProbeSettings(), cancellation: ProbeCancellation = ProbeCancellation()
) throws -> (result: ProbeResult, elapsed: Duration) {
    let request = try ProbeRequest(parsing: url, method: method, headers: headers, expectations: expectations)
    let clock = ContinuousClock()
    let start = clock.now
    let result = CurlProbeEngine(settings: settings).probe(request, cancellation: cancellation)
    return (result, clock.now - start)
}

/// Settings for a call: a proxy (or direct), a TLS policy trusting the test CA, short limits.
func settings(
    proxy: String? = "", noProxy: String? = nil, trustTestCA: Bool = true, policy: SecurityPolicy = SecurityPolicy(),
    connectTimeout: Double? = 2, maxTime: Double? = 5, forcesTunnel: Bool = false
) throws -> ProbeSettings {
    var policy = policy
    if trustTestCA && policy.caFile == nil { policy.caFile = try TestPKI.shared.get().caPath }
    return ProbeSettings(
        proxy: ProxyConfiguration(proxy: proxy, noProxy: noProxy), forcesTunnel: forcesTunnel, security: policy,
        connectTimeout: connectTimeout, maxTime: maxTime)
}

extension ProbeResult {
    /// The failure code, or `nil` unless the call failed.
    var code: FailureCode? { outcome.failureReason?.code }
    /// The failure reason's message.
    var reasonMessage: String { outcome.failureReason?.message ?? "" }
}

extension Duration {
    /// Seconds as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
