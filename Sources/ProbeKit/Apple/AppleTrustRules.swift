import Digests

/// One of Apple's requirements for a TLS server certificate or connection, checked on what the
/// call saw. Apple documents the requirements, not a code per rule: a failed certificate rule is
/// reported as the platform's trust failure (-1202), a failed ATS rule as -1200, both observed
/// behaviour rather than documented codes.
public struct AppleTrustCheck: Sendable, Equatable {
    /// The requirement, e.g. `"extendedKeyUsage serverAuth"`.
    public var rule: String
    /// Whether the certificate or connection meets it.
    public var passed: Bool
    /// What was seen, e.g. `"validity 1000 days"`.
    public var detail: String
    /// Where Apple states it.
    public var source: String
    /// True for an App Transport Security rule (the connection), false for a certificate rule.
    public var isATS: Bool
}

/// Apple's trust requirements: "Requirements for trusted certificates in iOS 13 and macOS
/// 10.15" (support.apple.com/HT210176), "About upcoming limits on trusted certificates"
/// (support.apple.com/HT211025: 398 days for certificates issued from 2020-09-01, roots Apple
/// preloads only) and App Transport Security (Information Property List Key Reference,
/// NSAppTransportSecurity: TLS 1.2 or later, forward-secret ciphers).
public enum AppleTrustRules {
    static let requirements = "Apple: Requirements for trusted certificates in iOS 13 and macOS 10.15 (HT210176)"
    static let limits = "Apple: About upcoming limits on trusted certificates (HT211025)"
    static let ats = "Apple: App Transport Security (NSAppTransportSecurity)"
    /// 2020-09-01T00:00:00Z.
    static let limitStart = 1_598_918_400

    /// The checks of a leaf certificate and the connection.
    ///
    /// - Parameters:
    ///   - leaf: The server's certificate.
    ///   - preloadedRoot: Whether the chain is judged against the system's roots (no `--cacert`):
    ///     the 398-day limit applies to those only.
    ///   - tls: The negotiated version and cipher, when the handshake finished.
    /// - Returns: Every rule, in a fixed order.
    public static func checks(leaf: LeafCertificateFacts, preloadedRoot: Bool, tls: TLSFacts?) -> [AppleTrustCheck] {
        var checks: [AppleTrustCheck] = []
        func add(_ rule: String, _ passed: Bool, _ detail: String, _ source: String, ats: Bool = false) {
            checks.append(AppleTrustCheck(rule: rule, passed: passed, detail: detail, source: source, isATS: ats))
        }
        add(
            "DNS name in subjectAltName (a CommonName alone is not trusted)", leaf.subjectAltNameCount > 0,
            "\(leaf.subjectAltNameCount) DNS or IP name\(leaf.subjectAltNameCount == 1 ? "" : "s") in subjectAltName",
            requirements)
        add(
            "extendedKeyUsage with serverAuth", leaf.serverAuth == true,
            leaf.serverAuth.map { $0 ? "serverAuth present" : "extendedKeyUsage without serverAuth" }
                ?? "no extendedKeyUsage extension",
            requirements)
        if leaf.keyType == "RSA" {
            add("RSA keys of at least 2048 bits", leaf.keyBits >= 2048, "RSA \(leaf.keyBits) bits", requirements)
        }
        // A key type that signs without a separate digest (Ed25519) has none to judge.
        let digest = leaf.signatureDigest
        add(
            "SHA-2 signature", digest.map { $0.hasPrefix("SHA2") || $0.hasPrefix("SHA3") || $0.hasPrefix("SHA5") } ?? true,
            digest.map { "signed with \($0)" } ?? "no separate signature digest", requirements)
        let days = (leaf.notAfter - leaf.notBefore) / 86_400
        add("validity at most 825 days", days <= 825, "validity \(days) days", requirements)
        if preloadedRoot && leaf.notBefore >= limitStart {
            add("validity at most 398 days (issued from 2020-09-01)", days <= 398, "validity \(days) days", limits)
        }
        if let version = tls?.version {
            let modern = version == "TLSv1.2" || version == "TLSv1.3"
            add("TLS 1.2 or later", modern, version, ats, ats: true)
            if let cipher = tls?.cipher {
                // TLS 1.3 suites are all forward secret; before it, ECDHE or DHE key exchange is.
                let forwardSecret = version == "TLSv1.3" || cipher.hasPrefix("ECDHE") || cipher.hasPrefix("DHE")
                add("forward-secret cipher", forwardSecret, cipher, ats, ats: true)
            }
        }
        return checks
    }
}
