import XZ

/// Resolves apt package pins against the archives a build stage reads: reads each suite's
/// `InRelease` (its signature checked with the archive's own keyring, and only the verified
/// text used), each component's `COMPONENT/binary-ARCH/Packages.xz` (or `Packages`) index it
/// lists (its size and SHA-256 checked against InRelease, and the decompressed text against the
/// `Packages` entry when listed), and finds each pinned version there.
///
/// All HTTP goes through a ``RegistryTransport``, the registry client's door, so the CLI's
/// libcurl transport (proxy selection as curl's, deadlines) serves both.
///
/// Source: Debian wiki, "DebianRepository/Format" (InRelease, Release `SHA256`, Packages
/// indices, `dists/SUITE/COMPONENT/binary-ARCH/`); apt's acquire order (InRelease, then the
/// compressed index it lists).
public struct AptPackageResolver: Sendable {
    /// Sends the HTTP requests.
    public var transport: any RegistryTransport
    /// Checks each InRelease signature.
    public var signatureCheck: any ArchiveSignatureCheck
    /// The build's architecture as `dpkg --print-architecture` prints it, e.g. `amd64`;
    /// `all` packages are found in the same index.
    public var architecture: String
    /// The most bytes an index may decompress to (bookworm's main for amd64: about 45 MB).
    public var maxIndexBytes = 512 * 1_048_576

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - transport: The HTTP transport.
    ///   - signatureCheck: The InRelease check.
    ///   - architecture: The build's architecture, e.g. `amd64`.
    public init(transport: any RegistryTransport, signatureCheck: any ArchiveSignatureCheck, architecture: String) {
        self.transport = transport
        self.signatureCheck = signatureCheck
        self.architecture = architecture
    }

    /// Resolves pins.
    ///
    /// - Parameters:
    ///   - pins: The pins; each written form is resolved once.
    ///   - archives: The archives the build stage reads.
    /// - Returns: Each pin found (one per written form, sorted by it), and each pin the archives
    ///   do not hold with the versions they do hold, in words.
    /// - Throws: `PackageResolutionError` of kind `.archive` for an archive not reachable, a
    ///   status other than 200, a bad signature, a suite that is not the one asked for, an index
    ///   not listed or not matching its checksum.
    public func resolve(
        _ pins: [PackagePin], in archives: [AptArchive]
    ) throws(PackageResolutionError) -> (resolved: [ResolvedPackage], missing: [(pin: PackagePin, present: String)]) {
        let unique = Self.unique(pins)
        guard !unique.isEmpty else { return ([], []) }
        let found = try entries(for: Array(unique.values), in: archives)
        var resolved: [ResolvedPackage] = []
        var missing: [(pin: PackagePin, present: String)] = []
        for written in unique.keys.sorted(by: LockInputs.precedes) {
            guard let pin = unique[written] else { continue }
            let arch = pin.architecture ?? architecture
            let candidates = found.filter {
                $0.entry.name == pin.name && ($0.entry.architecture == arch || $0.entry.architecture == "all")
            }
            if let match = candidates.first(where: { $0.entry.version == pin.version }) {
                resolved.append(ResolvedPackage(written: written, entry: match.entry, suite: match.suite, source: match.source))
                continue
            }
            var there: [String] = []
            for candidate in candidates {
                let text = "\(candidate.entry.version) (\(candidate.suite))"
                if !there.contains(text) { there.append(text) }
            }
            missing.append(
                (pin, there.isEmpty ? "it has no package \(pin.name) for \(arch)" : "it has \(there.joined(separator: ", "))"))
        }
        return (resolved, missing)
    }

    /// The version apt would install today for each pin's package: the highest (dpkg's order)
    /// of any suite for the pin's architecture, with the suite that has it.
    ///
    /// - Parameters:
    ///   - pins: The pins.
    ///   - archives: The archives.
    /// - Returns: The newest entry for each pin as written; a pin whose package the archives
    ///   lack has none.
    /// - Throws: `PackageResolutionError` as ``resolve(_:in:)`` for an archive it cannot read.
    public func newest(
        for pins: [PackagePin], in archives: [AptArchive]
    ) throws(PackageResolutionError) -> [String: ResolvedPackage] {
        let unique = Self.unique(pins)
        guard !unique.isEmpty else { return [:] }
        let found = try entries(for: Array(unique.values), in: archives)
        var newest: [String: ResolvedPackage] = [:]
        for (written, pin) in unique {
            let arch = pin.architecture ?? architecture
            for candidate in found
            where candidate.entry.name == pin.name
                && (candidate.entry.architecture == arch || candidate.entry.architecture == "all")
            {
                if let known = newest[written], DebianVersion(known.entry.version) >= DebianVersion(candidate.entry.version) {
                    continue
                }
                newest[written] = ResolvedPackage(
                    written: written, entry: candidate.entry, suite: candidate.suite, source: candidate.source)
            }
        }
        return newest
    }

    /// Each written form once, with its first pin.
    private static func unique(_ pins: [PackagePin]) -> [String: PackagePin] {
        var unique: [String: PackagePin] = [:]
        for pin in pins where unique[pin.written] == nil { unique[pin.written] = pin }
        return unique
    }

    /// One index entry and where it was found.
    struct Found {
        var suite: String
        var source: String
        var entry: PackagesIndex.Entry
    }

    /// The index entries of the pins' packages in every suite and component, in the sources' order.
    private func entries(for pins: [PackagePin], in archives: [AptArchive]) throws(PackageResolutionError) -> [Found] {
        let names = Set(pins.map(\.name))
        let architectures = Set(pins.map { $0.architecture ?? architecture }).sorted()
        var found: [Found] = []
        for archive in archives {
            for source in archive.sources(architecture: architecture) {
                for suite in source.suites {
                    let release = try release(of: suite, at: source.url, keyring: archive.keyring)
                    for component in archive.components {
                        for arch in architectures {
                            let index = try packages(
                                of: suite, component: component, at: source.url, release: release, architecture: arch,
                                keeping: names)
                            found += index.entries.map { Found(suite: suite, source: source.url, entry: $0) }
                        }
                    }
                }
            }
        }
        return found
    }

    /// Fetches and verifies `URL/dists/SUITE/InRelease` with the archive's keyring.
    private func release(of suite: String, at url: String, keyring: AptKeyring) throws(PackageResolutionError) -> ReleaseFile {
        let location = "\(url)/dists/\(suite)/InRelease"
        let signed = try fetch(location)
        let text: [UInt8]
        do {
            text = try signatureCheck.verifiedText(of: signed, keyring: keyring)
        } catch {
            throw PackageResolutionError("\(location): the signature does not check out against \(keyring): \(error.reason)")
        }
        let release = try ReleaseFile(parsing: text)
        guard release.codename == suite || release.suite == suite else {
            let named = release.codename ?? release.suite ?? "no suite"
            throw PackageResolutionError("\(location) is the Release file of \(named), not of \(suite)")
        }
        return release
    }

    /// Fetches a suite's `COMPONENT/binary-ARCH/Packages.xz` (else its plain `Packages`) and
    /// checks it against its Release file.
    private func packages(
        of suite: String, component: String, at url: String, release: ReleaseFile, architecture: String,
        keeping names: Set<String>
    ) throws(PackageResolutionError) -> PackagesIndex {
        let path = "\(component)/binary-\(architecture)/Packages"
        let text: [UInt8]
        if let listed = release.files[path + ".xz"] {
            let location = "\(url)/dists/\(suite)/\(path).xz"
            let compressed = try fetch(location)
            guard compressed.count == listed.size, Digest.sha256(of: compressed).hex == listed.sha256 else {
                throw PackageResolutionError(
                    "\(location) does not match its InRelease entry (\(compressed.count) bytes, \(listed.size) listed, or another SHA-256)"
                )
            }
            do {
                text = try XZ.decompress(compressed, maxOutputBytes: maxIndexBytes)
            } catch {
                throw PackageResolutionError("\(location): \(error.reason)")
            }
            if let plain = release.files[path], plain.size != text.count || Digest.sha256(of: text).hex != plain.sha256 {
                throw PackageResolutionError("\(location) decompresses to another text than the \(path) its InRelease lists")
            }
        } else if let listed = release.files[path] {
            let location = "\(url)/dists/\(suite)/\(path)"
            text = try fetch(location)
            guard text.count == listed.size, Digest.sha256(of: text).hex == listed.sha256 else {
                throw PackageResolutionError(
                    "\(location) does not match its InRelease entry (\(text.count) bytes, \(listed.size) listed, or another SHA-256)"
                )
            }
        } else if architecture != self.architecture {
            // A pin for another architecture (`curl:i386=…`) the suite does not build: it holds
            // no such package, which the pin's own message says.
            return PackagesIndex(parsing: [], keeping: names)
        } else {
            throw PackageResolutionError(
                "the InRelease of \(suite) at \(url) lists no \(path).xz or \(path): is \(component) one of its "
                    + "components, and \(architecture) one of its architectures?", kind: .declaration)
        }
        return PackagesIndex(parsing: text, keeping: names)
    }

    /// `GET URL`, a 200 answer's body.
    private func fetch(_ url: String) throws(PackageResolutionError) -> [UInt8] {
        let response: RegistryResponse
        do {
            response = try transport.send(RegistryRequest(method: "GET", url: url))
        } catch {
            throw PackageResolutionError("cannot read \(url): \(error.message)")
        }
        guard response.statusCode == 200 else {
            throw PackageResolutionError("GET \(url) answered HTTP \(response.statusCode)")
        }
        return response.body
    }
}
