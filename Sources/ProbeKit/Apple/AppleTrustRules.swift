import Digests
import Foundation

/// Apple's trust rules as trustd applies them (apple-oss-distributions/Security:
/// `trust/trustd/SecPolicyServer.c`, `OSX/sec/Security/SecPolicy.c`), beside the documents
/// that announce them: "Requirements for trusted certificates in iOS 13 and macOS 10.15"
/// (support.apple.com/HT210176), "About upcoming limits on trusted certificates"
/// (support.apple.com/HT211025) and App Transport Security (NSAppTransportSecurity: TLS 1.2 or
/// later, ECDHE forward secrecy). Where a document and the source differ (a user-installed
/// root is spared the serverAuth rule and the validity limits), the source decides;
/// docs/apple-clients.md names both. Certificate Transparency is not checked.
public enum AppleTrustRules {
    static let requirements = "Apple: Requirements for trusted certificates in iOS 13 and macOS 10.15 (HT210176)"
    static let limits = "Apple: About upcoming limits on trusted certificates (HT211025)"
    static let trustd = "Apple: trustd (Security, SecPolicyServer.c)"
    static let ats = "Apple: App Transport Security (NSAppTransportSecurity)"

    /// The issue dates at which trustd's rules change, in seconds since 1970: 2018-03-01 and
    /// 2020-09-01 at 00:00 UTC, and trustd's "1 July 2019", whose constant (583628400 since
    /// 2001) is 2019-06-30T23:00:00Z.
    static let march2018 = 1_519_862_400
    static let july2019 = 1_561_935_600
    static let september2020 = 1_598_918_400

    /// The rules for a chain as the device built it, and the connection.
    ///
    /// - Parameters:
    ///   - chain: The chain built, leaf first; the root last when ``TrustFacts/Anchor`` is not `.none`.
    ///   - anchor: Whose root the chain leads to.
    ///   - nameMatches: Whether the leaf's subjectAltName names the host.
    ///   - host: The host asked for.
    ///   - tls: The negotiated version and cipher, when the handshake finished.
    /// - Returns: Every rule that applies, in the order trustd checks them; empty without a leaf.
    public static func checks(
        chain: [CertificateFacts], anchor: TrustFacts.Anchor, nameMatches: Bool, host: String, tls: TLSFacts?
    ) -> [AppleTrustCheck] {
        guard let leaf = chain.first else { return [] }
        var checks: [AppleTrustCheck] = []
        func add(
            _ rule: String, _ passed: Bool, _ detail: String, _ source: String, _ scope: AppleTrustCheck.Scope, _ error: String?
        ) {
            checks.append(
                AppleTrustCheck(
                    rule: rule, passed: passed, detail: detail, source: source, scope: scope, securityError: passed ? nil : error)
            )
        }
        // Signatures are judged on every certificate that is not its own issuer; keys on every
        // certificate, the root included, but a leaf the user installed itself.
        let signed = chain.filter { !$0.selfIssued }
        let userLeaf = anchor == .user && chain.count == 1
        let keySize = "-67735 errSecUnsupportedKeySize"
        let digest = "-67815 errSecInvalidDigestAlgorithm"

        // The basic X.509 policy: every evaluation (SecCertificateIsWeakKey, SecPolicyCheckCertWeakSignature).
        let weakKey = chain.first { certificate in
            switch certificate.keyType {
            case "RSA": certificate.keyBits < 1024
            case "EC": certificate.keyBits < 160
            case "ED25519", "ED448": false
            default: true
            }
        }
        add(
            "no weak key (RSA under 1024 bits, EC under 160, or another kind)", weakKey == nil,
            weakKey.map { "\($0.subject): \($0.keyType) \($0.keyBits) bits" } ?? "none", trustd, .basic, keySize)
        let weakDigest = signed.first { ["MD2", "MD4", "MD5"].contains($0.signatureDigest ?? "") }
        add(
            "no MD2, MD4 or MD5 signature", weakDigest == nil,
            weakDigest.map { "\($0.subject): signed with \($0.signatureDigest ?? "")" } ?? "none", trustd, .basic, digest)

        // The SSL server policy for a host: the name, in subjectAltName only.
        add(
            "the host named in subjectAltName (a CommonName is not read)", nameMatches,
            leaf.subjectAltNameCount == 0
                ? "no DNS or IP name in subjectAltName; subject \(leaf.subject)"
                : "\(leaf.subjectAltNameCount) DNS or IP name\(leaf.subjectAltNameCount == 1 ? "" : "s") in subjectAltName"
                    + (nameMatches ? ", \(host) among them" : ", none is \(host)"),
            requirements, .serverHost, "-67602 errSecHostNameMismatch")

        // The SSL server policy, with or without a host.
        let eku = "-67609 errSecInvalidExtendedKeyUsage"
        let usable = leaf.serverAuth != false || leaf.anyExtendedKeyUsage || leaf.serverGatedCrypto
        add(
            "extendedKeyUsage, when present, allows a TLS server", usable, describeUsage(leaf), trustd, .server, eku)
        // SecPolicyCheckExtendedKeyUsage enforces EKUs on sub-CAs under any anchor.
        // trustd loops up to the last certificate, which it takes for the anchor; under a
        // preloaded root SecPolicyCheckServerAuthEKU takes serverAuth or anyExtendedKeyUsage only.
        let intermediate = chain.dropFirst().dropLast().first {
            $0.serverAuth == false && !$0.anyExtendedKeyUsage && (anchor == .system || !$0.serverGatedCrypto)
        }
        add(
            "each intermediate's extendedKeyUsage, when present, allows a TLS server", intermediate == nil,
            intermediate.map { "\($0.subject): \(describeUsage($0))" } ?? "yes", trustd, .server, eku)
        let strictUsage: String? =
            switch anchor {
            case .system: "a preloaded root"
            case .user: nil  // trustd skips the rule for user-installed roots
            case .none: leaf.notBefore > july2019 ? "a certificate issued after 2019-07-01" : nil
            }
        if let strictUsage {
            add(
                "serverAuth in extendedKeyUsage (for \(strictUsage))", leaf.serverAuth == true, describeUsage(leaf), requirements,
                .server, eku)
        }
        let shortKey =
            // trustd's key-size table names RSA and EC only: any other kind fails (SecCertificateIsAtLeastMinKeySize).
            userLeaf
            ? nil
            : chain.first {
                // trustd compares whole bytes: a 2041-bit RSA key is 256 bytes long.
                switch $0.keyType {
                case "RSA": ($0.keyBits + 7) / 8 < 256
                case "EC": ($0.keyBits + 7) / 8 < 32
                default: true
                }
            }
        add(
            "RSA keys of at least 2048 bits or EC keys of at least 256, no other kind (every certificate, the root included)",
            shortKey == nil, shortKey.map { "\($0.subject): \($0.keyType) \($0.keyBits) bits" } ?? "yes", requirements,
            .server, keySize)
        let sha1 = signed.first { ["SHA1", "MD5", "MD4", "MD2"].contains($0.signatureDigest ?? "") }
        add(
            "no SHA-1 signature (every certificate but a self-signed one)", sha1 == nil,
            sha1.map { "\($0.subject): signed with \($0.signatureDigest ?? "")" } ?? "none", requirements, .server, digest)
        if let limit = validityLimit(leaf, anchor: anchor, chainLength: chain.count) {
            let seconds = leaf.notAfter - leaf.notBefore
            add(
                "validity at most \(limit.name)", seconds <= limit.seconds,
                "validity \(describe(seconds: seconds)), issued \(day(leaf.notBefore))", limit.source, .server,
                "-67901 errSecCertificateValidityPeriodTooLong")
        }

        // App Transport Security: the connection.
        if let version = tls?.version {
            add("TLS 1.2 or later", version == "TLSv1.2" || version == "TLSv1.3", version, ats, .ats, nil)
            if let cipher = tls?.cipher {
                // TLS 1.3 suites are all forward secret; before it ATS accepts ECDHE suites only.
                add(
                    "forward secrecy (an ECDHE cipher)", version == "TLSv1.3" || cipher.hasPrefix("ECDHE"), cipher, ats, .ats, nil
                )
            }
        }
        return checks
    }

    /// The longest validity trustd allows the leaf (`set_ssl_validity_periods`, and
    /// `check_other_trust_ssl_validity_maximums` for roots not preloaded): under a preloaded
    /// root 398 days for a leaf issued from 2020-09-01 and 825 days (and an hour) from
    /// 2018-03-01, none before; none for a leaf the user installed itself; else 825 days (and an
    /// hour) for a leaf issued from trustd's 2019-07-01.
    static func validityLimit(
        _ leaf: CertificateFacts, anchor: TrustFacts.Anchor, chainLength: Int
    )
        -> (name: String, seconds: Int, source: String)?
    {
        let day = 86_400
        switch anchor {
        case .system:
            if leaf.notBefore >= september2020 { return ("398 days (issued from 2020-09-01)", day * 398, limits) }
            if leaf.notBefore >= march2018 { return ("825 days (issued from 2018-03-01)", day * 825 + 3600, requirements) }
            return nil
        case .user where chainLength == 1:
            return nil
        case .user, .none:
            return leaf.notBefore >= july2019 ? ("825 days (issued after 2019-07-01)", day * 825 + 3600, requirements) : nil
        }
    }

    static func describeUsage(_ certificate: CertificateFacts) -> String {
        switch certificate.serverAuth {
        case nil: "no extendedKeyUsage extension"
        case true?: "serverAuth present"
        case false?:
            certificate.anyExtendedKeyUsage
                ? "anyExtendedKeyUsage without serverAuth"
                : certificate.serverGatedCrypto ? "Server Gated Crypto without serverAuth" : "extendedKeyUsage without serverAuth"
        }
    }

    /// Whole days and the seconds beyond them, e.g. `"825 days"`, `"825 days 3601 s"`.
    static func describe(seconds: Int) -> String {
        let days = seconds / 86_400
        let rest = seconds % 86_400
        return "\(days) day\(days == 1 ? "" : "s")" + (rest == 0 ? "" : " \(rest) s")
    }

    /// `YYYY-MM-DD` of a time in seconds since 1970 (UTC).
    static func day(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
