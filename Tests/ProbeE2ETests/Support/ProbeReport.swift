/// The JSON report of `stagebuild probe --format json`: one object per call, then the counts.
///
/// Only the fields the end-to-end tests read are declared; every one that may be `null` is
/// optional, so the decoder checks names and types without tying the tests to the rest.
struct ProbeReport: Decodable, Sendable {
    struct Probe: Decodable, Sendable {
        var target: String
        var method: String?
        var engine: String?
        /// `"proxy"` or `"direct"`.
        var route: String?
        /// The proxy used, credentials masked (`user:***@host`).
        var proxy: String?
        /// `"succeeded"`, `"failed"` or `"cancelled"`.
        var outcome: String
        /// The failure reason's stable name, e.g. `"hostNameMismatch"`.
        var reason: String?
        /// `proxy` or `target`: where the failure happened.
        var hop: String?
        var message: String?
        var urlError: AppleError?
        var hint: String?
        var warnings: [String]?
        var httpStatus: Int?
        var connectStatus: Int?
        var tls: TLSFacts?
        var proxyTls: TLSFacts?
        var redirects: [Redirect]?
        var hops: [Hop]?
        var appleClients: [AppleClientVerdict]?
        var appleRootOnlyThisMachineTrusts: String?
        var certificateFrom: String?
        var certificateFromEvidence: String?
        var timings: Timings?
        var remoteAddress: String?
        var pac: PACDecision?

        /// The verdict of one stack, e.g. `"AFNetworking 3"`.
        func verdict(_ client: String) -> AppleClientVerdict? { appleClients?.first { $0.client == client } }
    }

    /// How a PAC script routed the call: its answer and each entry's fate.
    struct PACDecision: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            var entry: String
            /// `"ended"`, `"failedOver"` or `"notTried"`.
            var state: String
            var reason: String?
            var hop: String?
            var message: String?
            var urlError: AppleError?
            var connectStatus: Int?
        }

        var script: String
        var answer: String
        var unreadable: [String]
        var entries: [Entry]

        /// Each entry as `"ENTRY state[ reason]"`, e.g. `"PROXY 127.0.0.1:9 failedOver proxyUnreachable"`.
        var fates: [String] { entries.map { [$0.entry, $0.state, $0.reason].compactMap { $0 }.joined(separator: " ") } }
    }

    /// What one Apple client stack would do with the certificate shown.
    struct AppleClientVerdict: Decodable, Sendable {
        var client: String
        var outcome: String
        var errorDomain: String?
        var errorCode: Int?
        var errorCase: String?
        var underlyingError: String?
        var rule: String
        var condition: String?
        var fixes: [String]
        var warnings: [String]
    }

    /// The `URLError` an Apple client would see.
    struct AppleError: Decodable, Sendable {
        var code: Int
        var name: String?
        var note: String?
    }

    struct Redirect: Decodable, Sendable {
        var status: Int
        var location: String
    }

    /// One request of a redirected call.
    struct Hop: Decodable, Sendable {
        var url: String
        var method: String
        var route: String?
        var proxy: String?
        var httpStatus: Int?
        var connectStatus: Int?
        var location: String?
        var tls: TLSFacts?
        var certificateFrom: String?
        var appleClients: [AppleClientVerdict]?
        var remoteAddress: String?
    }

    struct TLSFacts: Decodable, Sendable {
        var chainVerified: Bool?
        var nameVerified: Bool?
        var subject: String?
        var subjectAlternativeNames: [String]?
        var issuer: String?
        var notAfter: String?
        var notBefore: String?
        var daysUntilExpiry: Int?
        var version: String?
        var cipher: String?
        var alpn: String?
    }

    /// Milliseconds.
    struct Timings: Decodable, Sendable {
        var dnsMs: Double?
        var connectMs: Double?
        var tlsMs: Double?
        var firstByteMs: Double?
        var totalMs: Double?
    }

    struct Summary: Decodable, Sendable, Equatable {
        var succeeded: Int
        var failed: Int
        var cancelled: Int
    }

    var probes: [Probe]
    var summary: Summary
}
