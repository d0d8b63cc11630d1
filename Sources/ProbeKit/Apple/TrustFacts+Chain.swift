import Curl
import Digests
import Foundation

extension TrustFacts {
    /// The facts of a chain the server showed, checked by OpenSSL as the device would check it:
    /// against `--cacert` when given (a CA installed and fully trusted), else the system's roots.
    ///
    /// - Parameters:
    ///   - chain: The certificates as libcurl gave them (`CURLINFO_CERTINFO`), leaf first.
    ///   - host: The host asked for.
    ///   - policy: The probe's switches: the CA file and the pins.
    ///   - now: The time to check validity at, seconds since 1970.
    ///   - appleTrust: Apple's requirements as checked on the leaf and the connection.
    /// - Returns: `nil` when the chain has no readable leaf.
    public init?(
        chain: [PeerCertificate], host: String, policy: SecurityPolicy, now: Int, appleTrust: [AppleTrustCheck] = []
    ) {
        let pems = chain.compactMap(\.pem)
        guard !pems.isEmpty else { return nil }
        let check = CertificateChainCheck.check(certificates: pems, caFile: policy.caFile, host: host, now: now)
        guard check.verifyError >= 0 else { return nil }
        let standing: Chain =
            switch check.verifyError {
            case 0: .trusted
            case CertificateChainCheck.expired: .expired
            case CertificateChainCheck.notYetValid: .notYetValid
            default: .untrusted
            }
        // AFNetworking and Alamofire accept a pinned key anywhere in the chain the server sent.
        var pinMatches: Bool?
        if !policy.pinnedPublicKeys.isEmpty {
            let keys = pems.compactMap(CertificateChainCheck.publicKeySHA256(pem:)).map {
                "sha256//" + Data($0.bytes).base64EncodedString()
            }
            pinMatches = policy.pinnedPublicKeys.contains { keys.contains($0.text) }
        }
        self.init(
            chain: standing, nameMatches: check.hostMatches, pinMatches: pinMatches,
            failedRequirement: appleTrust.first { !$0.passed && !$0.isATS }?.rule,
            failedATSRule: appleTrust.first { !$0.passed && $0.isATS }?.rule)
    }
}
