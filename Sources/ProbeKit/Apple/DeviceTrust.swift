import Curl
import Digests
import Foundation
import Synchronization

/// The chain a server showed, judged as the device would judge it: against the public roots
/// standing for Apple's preloaded ones and the roots installed on the device (``AppleDevice``),
/// never against what this machine added to its own store. Where the chain leads to a root only
/// this machine trusts, the facts say which, so a verdict can say what installing it changes.
public enum DeviceTrust {
    /// The stores built so far, by the files they hold: built once per process, read by every call.
    private static let stores = Mutex<[String: TrustStore]>([:])

    /// The device's store.
    static func store(for device: AppleDevice) -> TrustStore {
        let files = publicRootFiles(device.publicRootsDirectory) + device.installedRootFiles
        return cached(key: files.joined(separator: "\n")) { TrustStore(files: files) }
    }

    /// This machine's default store (OpenSSL's default CA file and folder).
    static var machineStore: TrustStore { cached(key: "") { TrustStore(files: [], machineDefaults: true) } }

    private static func cached(key: String, make: () -> TrustStore) -> TrustStore {
        stores.withLock { stores in
            if let store = stores[key] { return store }
            let store = make()
            stores[key] = store
            return store
        }
    }

    /// The `.crt` and `.pem` files of a folder of roots, sorted; empty when it is missing.
    static func publicRootFiles(_ directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".crt") || $0.hasSuffix(".pem") }.sorted().map { directory + "/" + $0 }
    }

    /// The SHA-256 fingerprints of the certificates in PEM files, read once per list of files:
    /// every call of a run names the same ones.
    private static let fingerprints = Mutex<[[String]: Set<String>]>([:])

    static func fingerprints(ofFiles files: [String]) -> Set<String> {
        fingerprints.withLock { known in
            if let set = known[files] { return set }
            let set = Set(
                files.flatMap { file in PEMCertificates.blocks(in: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "") }
                    .compactMap(PEMCertificates.fingerprintSHA256(of:)))
            known[files] = set
            return set
        }
    }

    /// The facts of a chain on the device.
    ///
    /// - Parameters:
    ///   - chain: The certificates as libcurl gave them (`CURLINFO_CERTINFO`), leaf first.
    ///   - host: The host asked for.
    ///   - pins: `--pinned-public-key`, compared with the chain the device builds, root included,
    ///     as AFNetworking (`AFPublicKeyTrustChainForServerTrust`) and Alamofire
    ///     (`SecTrust.af.publicKeys`) compare.
    ///   - device: The device's roots and the app's ATS exception.
    ///   - tls: The negotiated version and cipher, for App Transport Security.
    ///   - now: The time to check validity at, seconds since 1970.
    /// - Returns: `nil` when the chain has no readable leaf.
    public static func facts(
        chain: [PeerCertificate], host: String, pins: [PublicKeyPin], device: AppleDevice, tls: TLSFacts?, now: Int
    ) -> TrustFacts? {
        let pems = chain.compactMap(\.pem)
        guard !pems.isEmpty else { return nil }
        let built = store(for: device).build(certificates: pems, now: now)
        guard built.verifyError >= 0 else { return nil }
        let standing: TrustFacts.Chain =
            switch built.verifyError {
            case 0: .trusted
            case CertificateChainCheck.expired: .expired
            case CertificateChainCheck.notYetValid: .notYetValid
            default: .untrusted
            }
        let certificates = built.certificates.isEmpty ? pems : built.certificates
        let installed = fingerprints(ofFiles: device.installedRootFiles)
        var anchor: TrustFacts.Anchor = .none
        if built.anchored, standing != .untrusted, let root = certificates.last {
            // trustd looks in the system's anchors first: a preloaded root also installed is preloaded.
            let fingerprint = PEMCertificates.fingerprintSHA256(of: root)
            anchor =
                fingerprint.map(fingerprints(ofFiles: publicRootFiles(device.publicRootsDirectory)).contains) == true
                ? .system : fingerprint.map(installed.contains) == true ? .user : .system
        }
        var pinMatches: Bool?
        if !pins.isEmpty {
            let keys = certificates.compactMap(CertificateChainCheck.publicKeySHA256(pem:)).map {
                "sha256//" + Data($0.bytes).base64EncodedString()
            }
            pinMatches = pins.contains { keys.contains($0.text) }
        }
        let nameMatches = TrustStore.namesHostInSubjectAltName(pem: pems[0], host: host)
        let certificateFacts = certificates.compactMap(CertificateFacts.init(pem:))
        var facts = TrustFacts(
            chain: standing, anchor: anchor, nameMatches: nameMatches, pinMatches: pinMatches,
            checks: AppleTrustRules.checks(
                chain: certificateFacts, anchor: anchor, nameMatches: nameMatches, host: host, tls: tls),
            atsCovers: AppTransportSecurity.covers(host: host),
            missingIssuer: standing == .untrusted && certificateFacts.last?.selfIssued == false,
            dates: certificateFacts.contains { $0.notAfter < now }
                ? .expired : certificateFacts.contains { $0.notBefore > now } ? .notYetValid : .trusted)
        if standing == .untrusted {
            // A root this machine trusts and the device does not: what installing it would change.
            var rooted = certificateFacts
            let machine = machineStore.build(certificates: pems, now: now)
            let dated = [0, CertificateChainCheck.expired, CertificateChainCheck.notYetValid]
            if machine.anchored, dated.contains(machine.verifyError), let root = machine.certificates.last {
                facts.rootOnlyThisMachineTrusts = CertificateFacts(pem: root)?.subject
                rooted = machine.certificates.compactMap(CertificateFacts.init(pem:))
            }
            facts.checksIfRootInstalled = AppleTrustRules.checks(
                chain: rooted, anchor: .user, nameMatches: nameMatches, host: host, tls: tls)
        }
        return facts
    }
}
