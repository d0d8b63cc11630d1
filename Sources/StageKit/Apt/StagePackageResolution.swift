import DockerfileSyntax

/// What `stagebuild lock` makes of a composition's apt package pins, build stage by build
/// stage: each pin looked up in the archives its stage declares (stages that declare the same
/// archives read them once); a pin that cannot be checked (no template declares its stage's
/// archive, its stage adds apt sources itself, or it asks for a suite nobody declares) is
/// *unverified*, not an error; a pin the declared archives lack, where apt reads nothing else,
/// is *missing*.
public struct StagePackageResolution: Sendable {
    /// A pin that could not be checked, why, and what to declare so that it can be.
    public struct Unverified: Sendable {
        /// The pin, at its position.
        public var pin: PackagePin
        /// Why it was not checked.
        public var why: String
        /// What to declare.
        public var declare: String
    }

    /// The pins found, one per written form, sorted by it.
    public var resolved: [ResolvedPackage] = []
    /// The pins not checked, in file order.
    public var unverified: [Unverified] = []
    /// Each pin the declared archives lack, as `FILE:LINE:COLUMN: message`.
    public var missing: [String] = []

    /// Resolves every stage's pins.
    ///
    /// - Parameters:
    ///   - stages: The composition's package stages.
    ///   - resolver: Reads the archives.
    /// - Throws: `PackageResolutionError` of kind `.archive` for an archive that cannot be read or
    ///   trusted, or when two build stages pin one written version to different `.deb` files.
    public init(_ stages: [Composition.PackageStage], resolver: AptPackageResolver) throws(PackageResolutionError) {
        var byWritten: [String: ResolvedPackage] = [:]
        var seen: Set<Occurrence> = []
        var groups: [[AptArchive]: [Composition.PackageStage]] = [:]
        var order: [[AptArchive]] = []
        for stage in stages where !stage.pins.isEmpty {
            guard !stage.archives.isEmpty else {
                for pin in stage.pins where seen.insert(Occurrence(pin, stage: stage.name)).inserted {
                    unverified.append(
                        Unverified(
                            pin: pin, why: "build stage \(stage.name) declares no apt archive",
                            declare: Self.declaration(for: stage)))
                }
                continue
            }
            if groups[stage.archives] == nil { order.append(stage.archives) }
            groups[stage.archives, default: []].append(stage)
        }
        for archives in order {
            let group = groups[archives] ?? []
            let found: [ResolvedPackage]
            let notFound: [(pin: PackagePin, present: String)]
            do {
                (found, notFound) = try resolver.resolve(group.flatMap(\.pins), in: archives)
            } catch {
                let declared = Set(archives.map(\.declaredBy).filter { !$0.isEmpty }).sorted().joined(separator: ", ")
                throw PackageResolutionError(
                    error.message + (declared.isEmpty ? "" : " (the archive of \(declared))"), kind: error.kind)
            }
            for package in found {
                if let other = byWritten[package.written], other.entry.sha256 != package.entry.sha256 {
                    throw PackageResolutionError(
                        "package pin \(package.written) names \(other.entry.filename) in one build stage's archive and "
                            + "\(package.entry.filename) in another's; pin each where its archive holds it")
                }
                byWritten[package.written] = package
            }
            let suites = Set(archives.flatMap { $0.sources(architecture: resolver.architecture).flatMap(\.suites) })
            let archiveWords = archives.map(\.description).joined(separator: " and ")
            let present = Dictionary(notFound.map { ($0.pin.written, $0.present) }) { first, _ in first }
            // Each stage decides for its own pins: another stage's archive holding the same
            // version says nothing about this one's.
            for stage in group {
                for pin in stage.pins {
                    guard let there = present[pin.written], seen.insert(Occurrence(pin, stage: stage.name)).inserted else {
                        continue
                    }
                    if let edit = stage.sourceEdits.first {
                        unverified.append(
                            Unverified(
                                pin: pin,
                                why: "\(archiveWords) lacks it, and its build stage \(stage.name) adds apt sources at "
                                    + "\(edit.file):\(edit.location.line) that no template declares",
                                declare: "add that source with a template that declares it (# apt-archive:), e.g. USE "
                                    + "apt-repository"))
                    } else if let target = pin.targetRelease, !suites.contains(target) {
                        unverified.append(
                            Unverified(
                                pin: pin,
                                why: "it is installed from -t \(target), a suite no template of build stage \(stage.name) "
                                    + "declares",
                                declare: "declare \(target) with a template that adds it (# apt-archive:), e.g. USE "
                                    + "apt-repository"))
                    } else {
                        missing.append(
                            "\(pin.file):\(pin.location.line):\(pin.location.column): package \(pin.name) version "
                                + "\(pin.version) is not in \(archiveWords) (build stage \(stage.name)) for "
                                + "\(pin.architecture ?? resolver.architecture); \(there)")
                    }
                }
            }
        }
        resolved = byWritten.keys.sorted(by: LockInputs.precedes).compactMap { byWritten[$0] }
    }

    /// One place a pin is written, in one build stage: a stage that places a template twice
    /// (through two requirements) says so once.
    private struct Occurrence: Hashable {
        var written: String
        var file: String
        var location: SourceLocation
        var stage: String

        init(_ pin: PackagePin, stage: String) {
            written = pin.written
            file = pin.file
            location = pin.location
            self.stage = stage
        }
    }

    /// What a stage without an archive declaration should declare, read from its base image.
    static func declaration(for stage: Composition.PackageStage) -> String {
        let image = stage.image ?? ""
        let parts = image.split(separator: "@").first.map { $0.split(separator: ":", maxSplits: 1) } ?? []
        let repository = parts.first.map(String.init) ?? ""
        let tag = parts.dropFirst().first.map(String.init) ?? ""
        let release = tag.split(separator: "-").first.map(String.init) ?? ""
        if ["debian", "docker.io/library/debian", "library/debian"].contains(repository) {
            let name = debianReleases[release] ?? (release.isEmpty || release.first?.isNumber == true ? "RELEASE" : release)
            return "base it on FROM stage:debian DEBIAN_RELEASE=\(name) instead of FROM \(image)"
        }
        if ["ubuntu", "docker.io/library/ubuntu", "library/ubuntu"].contains(repository) {
            let name = ubuntuReleases[release] ?? (release.isEmpty || release.first?.isNumber == true ? "CODENAME" : release)
            return "base it on FROM stage:ubuntu UBUNTU_RELEASE=\(name) instead of FROM \(image)"
        }
        return "base it on a template that declares its apt archive (# apt-archive:), or add one with USE apt-repository"
    }

    /// Debian's release numbers by code name, as the images' tags write them (`debian:12`).
    static let debianReleases = ["10": "buster", "11": "bullseye", "12": "bookworm", "13": "trixie", "14": "forky"]
    /// Ubuntu's release numbers by code name, as the images' tags write them (`ubuntu:24.04`).
    static let ubuntuReleases = [
        "20.04": "focal", "22.04": "jammy", "24.04": "noble", "24.10": "oracular", "25.04": "plucky", "25.10": "questing",
    ]
}
