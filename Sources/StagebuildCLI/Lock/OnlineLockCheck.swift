import StageKit

/// `lock --check --online`: what the offline check cannot catch. The offline check compares
/// the lockfile with the Stagefile and each entry with its own `integrity` digest, so it catches
/// accidental edits; an entry forged with a recomputed `integrity` passes it. Online, every
/// recorded image digest is fetched by digest from its registry (the manifest must exist in
/// that repository, hash to the digest and be the manifest of the recorded media type), each
/// tag's digest now is compared, as a note, with the recorded one, and every package entry is
/// looked up again in its build stage's archive at the recorded snapshot (the `.deb` path and
/// SHA-256 must be the index's).
enum OnlineLockCheck {
    /// One entry that did not check out.
    struct Failure {
        /// The entry, e.g. `images.debian:bookworm-slim`.
        var entry: String
        /// Why.
        var reason: String
        /// True when no answer came (the registry unreachable or refusing): exit 69, not 1.
        var isUnavailable: Bool
    }

    /// Checks every image entry against its registry.
    ///
    /// - Parameters:
    ///   - lockfile: The lockfile, current offline.
    ///   - client: The registry client with the run's credentials and transport.
    /// - Returns: The failures, in key order, and the notes for tags that moved since.
    static func checkImages(_ lockfile: Lockfile, client: RegistryClient) -> (failures: [Failure], notes: [String]) {
        var failures: [Failure] = []
        var notes: [String] = []
        for key in lockfile.images.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let image = lockfile.images[key], let reference = try? ImageReference(parsing: image.reference) else {
                continue
            }
            let entry = "images.\(key)"
            do {
                let pinned = try ImageReference(parsing: reference.pinned(to: image.digest))
                let fetched = try client.resolve(pinned)
                if fetched.mediaType != image.mediaType {
                    failures.append(
                        Failure(
                            entry: entry,
                            reason: "\(reference.domain) serves \(image.digest) as \(fetched.mediaType), not the recorded "
                                + "\(image.mediaType)", isUnavailable: false))
                    continue
                }
            } catch let error as RegistryError {
                let unavailable = error.kind == .unreachable || error.kind == .authentication
                let reason =
                    error.kind == .unknownManifest
                    ? "\(reference.domain) has no manifest \(image.digest) in \(reference.path): the entry was not written "
                        + "by stagebuild lock from this registry (\(error.message))" : error.message
                failures.append(Failure(entry: entry, reason: reason, isUnavailable: unavailable))
                continue
            } catch {
                failures.append(Failure(entry: entry, reason: "\(error)", isUnavailable: false))
                continue
            }
            if reference.digest == nil, let now = try? client.resolve(reference), now.digest != image.digest {
                notes.append("\(key): the tag now points to \(now.digest); run stagebuild lock to move the pin")
            }
        }
        return (failures, notes)
    }

    /// Checks every package entry against the archives of its build stage.
    ///
    /// - Parameters:
    ///   - lockfile: The lockfile, current offline.
    ///   - stages: The composition's package stages at the lockfile's snapshots.
    ///   - resolver: Reads the archives.
    /// - Returns: The failures, in key order.
    static func checkPackages(
        _ lockfile: Lockfile, stages: [Composition.PackageStage], resolver: AptPackageResolver
    ) -> [Failure] {
        guard !lockfile.packages.isEmpty || !lockfile.unverifiedPackages.isEmpty else { return [] }
        let resolution: StagePackageResolution
        do {
            resolution = try StagePackageResolution(stages, resolver: resolver)
        } catch {
            return [Failure(entry: "packages", reason: error.message, isUnavailable: error.kind == .archive)]
        }
        let found = Dictionary(resolution.resolved.map { ($0.written, $0) }) { first, _ in first }
        var failures: [Failure] = []
        for key in lockfile.packages.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let entry = lockfile.packages[key] else { continue }
            guard let package = found[key] else {
                failures.append(
                    Failure(entry: "packages.\(key)", reason: "its build stage's archive does not hold it", isUnavailable: false))
                continue
            }
            if package.entry.sha256 != entry.sha256 || package.entry.filename != entry.filename || package.source != entry.archive
                || package.suite != entry.suite || package.entry.architecture != entry.architecture
                || package.entry.name != entry.name || package.entry.version != entry.version
            {
                failures.append(
                    Failure(
                        entry: "packages.\(key)",
                        reason: "the archive holds \(package.entry.filename) (\(package.entry.architecture), suite "
                            + "\(package.suite)) with SHA-256 \(package.entry.sha256) at \(package.source), not what the entry "
                            + "records", isUnavailable: false))
            }
        }
        // A pin recorded as unverified must be one lock cannot check today: one its stage's
        // archives hold, or lack where apt reads nothing else, was moved there by hand.
        let uncheckable = Set(resolution.unverified.map(\.pin.written))
        for pin in lockfile.unverifiedPackages where !uncheckable.contains(pin) {
            let why =
                found[pin] != nil
                ? "its build stage's declared archive holds it, so lock checks it and records it under packages"
                : "its build stage's declared archive lacks it and apt reads no other source there, so lock refuses it"
            failures.append(
                Failure(entry: "unverifiedPackages: \(pin)", reason: why + "; edited by hand?", isUnavailable: false))
        }
        return failures
    }
}
