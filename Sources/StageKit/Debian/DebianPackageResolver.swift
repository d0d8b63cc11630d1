import XZ

/// Resolves Debian package pins against one archive state: reads each suite's `InRelease`
/// (its signature checked, and only the verified text used), the `main/binary-ARCH/Packages.xz`
/// index it lists (its size and SHA-256 checked against InRelease, and the decompressed text
/// against the `Packages` entry when listed), and finds each pinned version there.
///
/// All HTTP goes through a ``RegistryTransport``, the registry client's door, so the CLI's
/// libcurl transport (proxy selection as curl's, deadlines) serves both.
///
/// Source: Debian wiki, "DebianRepository/Format" (InRelease, Release `SHA256`, Packages
/// indices, `dists/SUITE/COMPONENT/binary-ARCH/`); apt's acquire order (InRelease, then the
/// compressed index it lists).
public struct DebianPackageResolver: Sendable {
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
    ///   - state: The archive state the build reads.
    /// - Returns: One resolution per written form, sorted by it.
    /// - Throws: `PackageResolutionError`: `.archive` for an archive not reachable, a status
    ///   other than 200, a bad signature, a suite that is not the one asked for, an index not
    ///   listed or not matching its checksum; `.missingVersion` naming each pin the archive
    ///   does not hold, with the versions it does hold.
    public func resolve(_ pins: [PackagePin], in state: DebianArchiveState) throws(PackageResolutionError) -> [ResolvedPackage] {
        let unique = Self.unique(pins)
        guard !unique.isEmpty else { return [] }
        let found = try entries(for: Array(unique.values), in: state)
        var resolved: [ResolvedPackage] = []
        var missing: [String] = []
        for written in unique.keys.sorted(by: LockInputs.precedes) {
            guard let pin = unique[written] else { continue }
            let arch = pin.architecture ?? architecture
            let candidates = found.filter {
                $0.entry.name == pin.name && ($0.entry.architecture == arch || $0.entry.architecture == "all")
            }
            if let match = candidates.first(where: { $0.entry.version == pin.version }) {
                resolved.append(ResolvedPackage(written: written, entry: match.entry, suite: match.suite))
                continue
            }
            var there: [String] = []
            for candidate in candidates {
                let text = "\(candidate.entry.version) (\(candidate.suite))"
                if !there.contains(text) { there.append(text) }
            }
            let present = there.isEmpty ? "it has no package \(pin.name) for \(arch)" : "it has \(there.joined(separator: ", "))"
            missing.append(
                "\(pin.file):\(pin.location.line):\(pin.location.column): package \(pin.name) version \(pin.version) is not in "
                    + "\(state) for \(arch); \(present)")
        }
        guard missing.isEmpty else { throw PackageResolutionError(missing.joined(separator: "\n"), kind: .missingVersion) }
        return resolved
    }

    /// The version apt would install today for each pin's package: the highest (dpkg's order)
    /// of any suite for the pin's architecture, with the suite that has it.
    ///
    /// - Parameters:
    ///   - pins: The pins.
    ///   - state: The archive state.
    /// - Returns: The newest entry for each pin as written; a pin whose package the archive
    ///   lacks has none.
    /// - Throws: `PackageResolutionError` as ``resolve(_:in:)`` for an archive it cannot read.
    public func newest(
        for pins: [PackagePin], in state: DebianArchiveState
    ) throws(PackageResolutionError) -> [String:
        ResolvedPackage]
    {
        let unique = Self.unique(pins)
        guard !unique.isEmpty else { return [:] }
        let found = try entries(for: Array(unique.values), in: state)
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
                newest[written] = ResolvedPackage(written: written, entry: candidate.entry, suite: candidate.suite)
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

    /// The index entries of the pins' packages in every suite, in the sources' order.
    private func entries(
        for pins: [PackagePin], in state: DebianArchiveState
    ) throws(PackageResolutionError) -> [(suite: String, entry: PackagesIndex.Entry)] {
        let names = Set(pins.map(\.name))
        let architectures = Set(pins.map { $0.architecture ?? architecture }).sorted()
        var found: [(suite: String, entry: PackagesIndex.Entry)] = []
        for source in state.sources {
            for suite in source.suites {
                let release = try release(of: suite, at: source.url)
                for arch in architectures {
                    let index = try packages(of: suite, at: source.url, release: release, architecture: arch, keeping: names)
                    found += index.entries.map { (suite, $0) }
                }
            }
        }
        return found
    }

    /// Fetches and verifies `URL/dists/SUITE/InRelease`.
    private func release(of suite: String, at url: String) throws(PackageResolutionError) -> ReleaseFile {
        let location = "\(url)/dists/\(suite)/InRelease"
        let signed = try fetch(location)
        let text: [UInt8]
        do {
            text = try signatureCheck.verifiedText(of: signed)
        } catch {
            throw PackageResolutionError("\(location): the signature does not check out: \(error.reason)")
        }
        let release = try ReleaseFile(parsing: text)
        guard release.codename == suite || release.suite == suite else {
            let named = release.codename ?? release.suite ?? "no suite"
            throw PackageResolutionError("\(location) is the Release file of \(named), not of \(suite)")
        }
        return release
    }

    /// Fetches `main/binary-ARCH/Packages.xz` of a suite and checks it against its Release file.
    private func packages(
        of suite: String, at url: String, release: ReleaseFile, architecture: String, keeping names: Set<String>
    ) throws(PackageResolutionError) -> PackagesIndex {
        let path = "main/binary-\(architecture)/Packages"
        let location = "\(url)/dists/\(suite)/\(path).xz"
        guard let listed = release.files[path + ".xz"] else {
            throw PackageResolutionError(
                "the InRelease of \(suite) at \(url) lists no \(path).xz (is \(architecture) built there?)")
        }
        let compressed = try fetch(location)
        guard compressed.count == listed.size, Digest.sha256(of: compressed).hex == listed.sha256 else {
            throw PackageResolutionError(
                "\(location) does not match its InRelease entry (\(compressed.count) bytes, \(listed.size) listed, or another SHA-256)"
            )
        }
        let text: [UInt8]
        do {
            text = try XZ.decompress(compressed, maxOutputBytes: maxIndexBytes)
        } catch {
            throw PackageResolutionError("\(location): \(error.reason)")
        }
        if let plain = release.files[path], plain.size != text.count || Digest.sha256(of: text).hex != plain.sha256 {
            throw PackageResolutionError("\(location) decompresses to another text than the \(path) its InRelease lists")
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
