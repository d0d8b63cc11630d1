import DockerfileSyntax
import Foundation
import ProbeKit
import StageKit

/// `stagebuild lock`: resolves every image of the composition to a digest through the registry
/// HTTP API v2 and writes `stagebuild.lock` beside the Stagefile; `--check` tells, without
/// network access, whether the lockfile is current.
enum LockCommand: Subcommand {
    static let name = "lock"
    static let summary = "Pin every image to a digest and every Debian package pin to its .deb; write stagebuild.lock."
    static let usage = """
        lock [STAGEFILE] [--check [--online]] [--stages DIR]... [--snapshot TIME|now] [--update-packages] [--architecture ARCH] [--proxy URL] [--noproxy LIST] [--cacert FILE] \
        [--insecure-registry HOST:PORT]... [--registry-auth HOST=USER:PASS]... [--registry-auth-file FILE]... [--connect-timeout S] [--max-time S]
        """
    static let discussion = """
        Composes STAGEFILE (default ./Stagefile) as `compose` does and collects every image it
        names: FROM in base templates and the Stagefile, COPY --from=IMAGE,
        RUN --mount=...,from=IMAGE and the # syntax= frontend (build stage names are not
        images). Each tag is resolved again through its registry: HEAD /v2/NAME/manifests/TAG
        asking for an OCI image index, Docker manifest list, OCI manifest or Docker v2
        manifest, so a multi-platform image pins its index digest. References are read as
        Docker reads them: docker.io with its API at registry-1.docker.io, library/ for official
        images. A reference that carries a digest is fetched and its bytes checked against it.

        Debian packages: every apt-get install (or apt install) operand NAME=VERSION in a RUN of
        the Stagefile or a template is looked up in the Debian archive state the build reads:
        the debian template's DEBIAN_SNAPSHOT (from the Stagefile, else --snapshot, else the
        snapshot the lockfile already records) at DEBIAN_SNAPSHOT_URL/archive/debian/TIME and
        .../debian-security/TIME, or else the live suites bookworm, bookworm-updates and
        bookworm-security of deb.debian.org. Each suite's InRelease is checked with gpgv against
        /usr/share/keyrings/debian-archive-keyring.gpg (the signed text gpgv verified is what is
        read), and its main/binary-ARCH/Packages.xz is checked against the SHA-256 InRelease
        lists. The lockfile records per pin the name, version, architecture, suite, .deb path and
        the .deb's SHA-256. A version the archive does not hold is an error before anything is
        written, naming the pin, the archive state and the versions it does hold.
        --snapshot now (or YYYYMMDDTHHMMSSZ) records that snapshot for every Debian stage, and
        compose writes it as DEBIAN_SNAPSHOT; --architecture is the build's (default: this
        machine's, as dpkg --print-architecture names it). --update-packages moves the
        snapshot to now (or to --snapshot TIME), rewrites each pin where the Stagefile or
        template writes it to the newest version there (every other byte kept; the
        Stagefile's own DEBIAN_SNAPSHOT too), prints old -> new per package, then locks.

        Writes stagebuild.lock beside the Stagefile, atomically and only when its content
        changes: JSON with sorted keys, per image the reference as written, its full name, the
        digest and the media type; per template the SHA-256 of its file; a digest of all
        inputs. On any error an existing lockfile is left as it was. `compose` then writes every
        image as IMAGE:TAG@sha256:DIGEST; `compose --locked` fails while the lockfile is stale.

        --check resolves nothing and uses no network: it says whether the lockfile matches the
        Stagefile's images, package pins and the templates' contents, and whether each entry
        matches its own integrity digest. That catches accidental edits; an entry forged with a
        recomputed integrity digest passes it. --check --online also fetches every recorded
        image digest by digest from its registry: the manifest must exist in that repository,
        hash to the digest and be of the recorded media type (else exit 1, naming the entry);
        a tag that has moved since is a note.

        Network: the proxy is chosen as curl and `stagebuild probe` choose it (--proxy, else
        https_proxy/HTTPS_PROXY, all_proxy/ALL_PROXY, http_proxy for plain HTTP registries;
        NO_PROXY/no_proxy or --noproxy bypass it). TLS is verified; --cacert adds trusted CAs.
        Credentials belong to one registry, as Docker, buildah, podman and skopeo keep them:
        --registry-auth HOST=USER:PASS (repeatable) and STAGEBUILD_REGISTRY_AUTH (such
        entries, one per line) first, then --registry-auth-file FILE, or by default the auth
        files those tools write: $REGISTRY_AUTH_FILE, $XDG_RUNTIME_DIR/containers/auth.json,
        ~/.config/containers/auth.json, $DOCKER_CONFIG/config.json or ~/.docker/config.json
        (auths per host, credHelpers per host and credsStore, which run
        docker-credential-NAME get). Docker Hub's names (docker.io, index.docker.io,
        registry-1.docker.io, https://index.docker.io/v1/) are one host. A registry's
        credentials go only to its own host when it asks (Basic), and to the token service its
        own challenge names (Bearer) over HTTPS or to a registry named insecure; never to
        another registry or another registry's token service. A registry with none is asked
        anonymously. Credentials are never printed. Every call has a connect deadline
        (--connect-timeout) and a total deadline (--max-time).

        Exit status: 0 written or current, 1 --check found the lockfile missing or stale (what
        is stale is named) or, with --online, an entry its registry does not serve, 64 usage, 65 bad input (a Stagefile, template or lockfile error, an
        invalid image reference, an image named through a variable, an unknown repository or
        tag), 69 a registry unreachable, refusing access, or answering wrongly (digest
        mismatch, a body that is no image manifest), 74 a file not readable or writable.
        """
    /// The options before the proxy authentication ones in `--help`.
    static let leadingOptions = [
        ArgumentScanner.Option(
            names: ["--check"], takesValue: false,
            help: "Resolve nothing; exit 1 when stagebuild.lock is missing or stale (no network)."),
        ArgumentScanner.Option(
            names: ["--online"], takesValue: false,
            help: "With --check: fetch each recorded digest from its registry, so a forged entry fails."),
        CatalogSearchPath.option,
        ArgumentScanner.Option(
            names: ["--snapshot"], takesValue: true, valueName: "TIME",
            help: "Resolve Debian packages at this snapshot.debian.org time (YYYYMMDDTHHMMSSZ or now) and record it."),
        ArgumentScanner.Option(
            names: ["--update-packages"], takesValue: false,
            help: "Move the snapshot to now (or --snapshot) and rewrite every pin to the version there."),
        ArgumentScanner.Option(
            names: ["--architecture"], takesValue: true, valueName: "ARCH",
            help: "The build's Debian architecture, e.g. amd64 (default: this machine's)."),
        NetworkOptions.proxy,
        NetworkOptions.noProxy,
    ]
    static let options =
        leadingOptions + ProxyAuthenticationOptions.options + [
            NetworkOptions.caCertificates,
            ArgumentScanner.Option(
                names: ["--insecure-registry"], takesValue: true, valueName: "HOST:PORT",
                help: "Reach this registry over plain HTTP, as written in references (repeatable)."),
        ] + RegistryAuthOptions.options + [
            NetworkOptions.connectTimeout,
            NetworkOptions.maxTime,
        ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        var settings = try Settings(arguments, context: context)
        if arguments.has("--update-packages") {
            guard !arguments.has("--check") else {
                throw CommandFailure.usage("--update-packages rewrites files; it cannot go with --check")
            }
            settings.snapshot = try updatePackages(arguments, settings: settings, context: context)
        }
        return try lock(arguments, settings: settings, context: context)
    }

    /// `lock` proper: resolves and writes the lockfile, or checks it with `--check`.
    private static func lock(
        _ arguments: ArgumentScanner.Arguments, settings: Settings, context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        if let caFile = settings.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            context.reportError("cannot read --cacert \(arguments.value("--cacert") ?? caFile): no such readable file")
            return .ioError
        }
        let input = try StagefileInput.load(arguments, context: context)
        let lock = input.lock
        let lockName = lock.display(lock.path)
        let inputs: LockInputs
        let composition: Composition
        do {
            composition = try input.composer.composition(of: input.stagefile)
            inputs = try composition.lockInputs()
        } catch {
            throw CommandFailure(error)
        }

        if arguments.has("--check") {
            let existing = try lock.load(context: context)
            let reasons = existing?.staleness(against: inputs) ?? [.missing]
            guard reasons.isEmpty, let existing else {
                context.reportError(
                    "\(lockName) is stale: \(reasons.map(\.description).joined(separator: "; ")); rewrite it with: \(lock.fix)")
                return .checkFailed
            }
            guard arguments.has("--online") else {
                context.standardOutput.write("\(lockName) is current (\(counts(inputs)))\n")
                return .success
            }
            return try checkOnline(existing, inputs: inputs, lockName: lockName, settings: settings, context: context)
        }
        guard !arguments.has("--online") else {
            throw CommandFailure.usage("--online goes with --check: it verifies the lockfile's entries where they come from")
        }

        let existing = try lock.loadForRewrite(context: context)
        for reference in inputs.images {
            do {
                _ = try settings.proxy.route(scheme: "https", host: reference.apiHost)
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        let client = RegistryClient(
            transport: transport(settings),
            credentials: settings.credentials, insecureRegistries: settings.insecureRegistries)
        let resolution = resolve(inputs.images, with: client, context: context)
        guard resolution.failures.isEmpty else {
            for failure in resolution.failures { context.reportError(failure.description) }
            let unavailable = resolution.failures.contains { $0.kind != .unknownManifest }
            let existed = FileManager.default.fileExists(atPath: lock.path)
            context.standardError.write("\(lockName) was \(existed ? "not changed" : "not written").\n")
            return unavailable ? .unavailable : .dataError
        }

        let archive = try archiveState(
            of: composition, stagefileSnapshot: inputs.debianSnapshot, settings: settings,
            lockedSnapshot: existing?.debianSnapshot, context: context)
        var packages: [ResolvedPackage] = []
        if !composition.packagePins.isEmpty {
            let resolver = DebianPackageResolver(
                transport: transport(settings, maxBodyBytes: 256 * 1_048_576),
                signatureCheck: GpgvSignatureCheck(deadline: settings.maxTime), architecture: settings.architecture)
            do {
                packages = try resolver.resolve(composition.packagePins, in: archive)
            } catch {
                context.reportError(error.message)
                let existed = FileManager.default.fileExists(atPath: lock.path)
                context.standardError.write("\(lockName) was \(existed ? "not changed" : "not written").\n")
                return error.kind == .missingVersion ? .dataError : .unavailable
            }
        }

        let lockfile = Lockfile(
            inputs: inputs, resolved: resolution.images, packages: packages,
            debianSnapshot: archive.snapshot)
        let changed: Bool
        do {
            changed = try AtomicFile.write(lockfile.text, to: lock.path)
        } catch {
            context.reportError("cannot write \(lockName): \(error.reason)")
            return .ioError
        }
        for reference in inputs.images {
            guard let image = lockfile.images[reference.written] else { continue }
            context.standardOutput.write("\(reference.written) \(image.digest)\n")
        }
        for pin in inputs.packages {
            guard let package = lockfile.packages[pin] else { continue }
            context.standardOutput.write("\(pin) \(package.architecture) \(package.suite) sha256:\(package.sha256)\n")
        }
        if !inputs.packages.isEmpty { context.standardOutput.write("packages from \(archive)\n") }
        context.standardOutput.write("\(changed ? "wrote" : "unchanged:") \(lockName) (\(counts(inputs)))\n")
        return .success
    }

    /// `--check --online`: every entry checked where it comes from (``OnlineLockCheck``).
    private static func checkOnline(
        _ lockfile: Lockfile, inputs: LockInputs, lockName: String, settings: Settings, context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        let client = RegistryClient(
            transport: transport(settings), credentials: settings.credentials, insecureRegistries: settings.insecureRegistries)
        let (failures, notes) = OnlineLockCheck.checkImages(lockfile, client: client)
        for note in notes { context.standardError.write("note: \(note)\n") }
        for failure in failures { context.reportError("\(lockName): \(failure.entry): \(failure.reason)") }
        if failures.contains(where: \.isUnavailable) { return .unavailable }
        guard failures.isEmpty else { return .checkFailed }
        context.standardOutput.write("\(lockName) is current and its entries check out online (\(counts(inputs)))\n")
        return .success
    }

    /// `2 images, 3 templates`, or `2 images, 4 packages, 3 templates` with package pins.
    private static func counts(_ inputs: LockInputs) -> String {
        let images = inputs.images.count
        let templates = inputs.templates.count
        let packages = inputs.packages.count
        let pins = packages == 0 ? "" : "\(packages) package\(packages == 1 ? "" : "s"), "
        return "\(images) image\(images == 1 ? "" : "s"), \(pins)\(templates) template\(templates == 1 ? "" : "s")"
    }

    /// `--update-packages`: moves the snapshot to now (or `--snapshot TIME`) and rewrites each
    /// package pin, where the Stagefile or template writes it, to the newest version there
    /// (one `SourceEdit` per pin: every other byte stays), and the Stagefile's own
    /// `DEBIAN_SNAPSHOT` when it gives one; prints a table of old and new versions.
    ///
    /// - Returns: The snapshot time the lock then reads.
    /// - Throws: `CommandFailure`, reported on stderr where it happened.
    private static func updatePackages(
        _ arguments: ArgumentScanner.Arguments, settings: Settings, context: CommandContext
    ) throws(CommandFailure) -> String {
        let input = try StagefileInput.load(arguments, context: context)
        let composition: Composition
        do {
            composition = try input.composer.composition(of: input.stagefile)
        } catch {
            throw CommandFailure(error)
        }
        let time = settings.snapshot.flatMap { $0 == "now" ? nil : $0 } ?? DebianSnapshotTime.format(context.now())
        var moved = settings
        moved.snapshot = time
        let archive = try archiveState(
            of: composition, stagefileSnapshot: nil, settings: moved, lockedSnapshot: nil, context: context)
        let resolver = DebianPackageResolver(
            transport: transport(settings, maxBodyBytes: 256 * 1_048_576),
            signatureCheck: GpgvSignatureCheck(deadline: settings.maxTime), architecture: settings.architecture)
        let newest: [String: ResolvedPackage]
        do {
            newest = try resolver.newest(for: composition.packagePins, in: archive)
        } catch {
            context.reportError(error.message)
            throw CommandFailure.reported(.unavailable)
        }
        var edits: [String: [SourceEdit]] = [:]
        var rows: [(pin: PackagePin, new: String, suite: String)] = []
        var problems: [String] = []
        for pin in composition.packagePins {
            let place = "\(pin.file):\(pin.location.line):\(pin.location.column)"
            guard let found = newest[pin.written] else {
                problems.append(
                    "\(place): \(archive) has no package \(pin.name) for \(pin.architecture ?? settings.architecture)")
                continue
            }
            rows.append((pin, found.entry.version, found.suite))
            guard found.entry.version != pin.version else { continue }
            guard !pin.isQuoted else {
                problems.append("\(place): \(pin.written) is quoted or escaped; write it bare so that it can be rewritten")
                continue
            }
            let name = pin.name + (pin.architecture.map { ":" + $0 } ?? "")
            edits[pin.path, default: []].append(
                SourceEdit(
                    range: SourceRange(start: pin.location, length: pin.written.unicodeScalars.count), expected: pin.written,
                    replacement: "\(name)=\(found.entry.version)"))
        }
        let parameter = DebianArchiveState.snapshotParameter
        for binding in composition.parameterBindings where binding.parameter == parameter && binding.value != time {
            edits[input.path, default: []].append(
                SourceEdit(
                    range: SourceRange(start: binding.location, length: "\(parameter)=\(binding.value)".unicodeScalars.count),
                    expected: "\(parameter)=\(binding.value)", replacement: "\(parameter)=\(time)"))
        }
        guard problems.isEmpty else {
            for problem in problems { context.reportError(problem) }
            context.standardError.write("nothing was rewritten.\n")
            throw CommandFailure.reported(.dataError)
        }
        var rewritten: [(path: String, text: String)] = []
        for path in edits.keys.sorted() {
            guard let fileEdits = edits[path] else { continue }
            let text: String
            do {
                text = try context.fileSystem.readText(at: path)
            } catch {
                context.reportError("cannot read \(input.lock.display(path)): \(error.reason)")
                throw CommandFailure.reported(.ioError)
            }
            let edited = SourceEdit.apply(fileEdits, to: text)
            guard edited.skipped.isEmpty else {
                let words = edited.skipped.map(\.expected).joined(separator: ", ")
                context.reportError(
                    "\(input.lock.display(path)): cannot rewrite \(words) where it is written; nothing was rewritten")
                throw CommandFailure.reported(.dataError)
            }
            rewritten.append((path, edited.text))
        }
        for file in rewritten {
            do {
                try AtomicFile.write(file.text, to: file.path)
            } catch {
                context.reportError("cannot write \(input.lock.display(file.path)): \(error.reason)")
                throw CommandFailure.reported(.ioError)
            }
        }
        context.standardOutput.write("packages at \(archive):\n")
        let width = rows.map { $0.pin.name.count }.max() ?? 0
        let oldWidth = rows.map { $0.pin.version.count }.max() ?? 0
        for row in rows {
            let name = row.pin.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let old = row.pin.version.padding(toLength: oldWidth, withPad: " ", startingAt: 0)
            let change = row.new == row.pin.version ? "(unchanged)" : "-> \(row.new)"
            context.standardOutput.write(
                "  \(name)  \(old)  \(change)  \(row.suite)  \(row.pin.file):\(row.pin.location.line)\n")
        }
        return time
    }

    /// The libcurl transport with the run's proxy, TLS and deadline settings.
    private static func transport(_ settings: Settings, maxBodyBytes: Int = 4 * 1_048_576) -> CurlRegistryTransport {
        var transport = CurlRegistryTransport(
            proxy: settings.proxy, proxyAuthentication: settings.proxyAuthentication, caFile: settings.caFile,
            connectTimeout: settings.connectTimeout, maxTime: settings.maxTime)
        transport.maxBodyBytes = maxBodyBytes
        return transport
    }

    /// The Debian archive state the build reads: the Stagefile's `DEBIAN_SNAPSHOT`, else
    /// `--snapshot`, else the snapshot the lockfile records, else the live suites; snapshots
    /// at the Stagefile's `DEBIAN_SNAPSHOT_URL`, else the template's default.
    private static func archiveState(
        of composition: Composition, stagefileSnapshot: String?, settings: Settings, lockedSnapshot: String?,
        context: CommandContext
    ) throws(CommandFailure) -> DebianArchiveState {
        var snapshot = stagefileSnapshot
        if let asked = settings.snapshot {
            let time = asked == "now" ? DebianSnapshotTime.format(context.now()) : asked
            if let given = snapshot, given != time {
                context.reportError(
                    "the Stagefile gives DEBIAN_SNAPSHOT=\(given); --snapshot \(asked) cannot move it (remove it from the Stagefile)"
                )
                throw CommandFailure.reported(.usage)
            }
            snapshot = time
        } else if snapshot == nil {
            snapshot = lockedSnapshot
        }
        guard let snapshot else { return .live }
        var baseURL = DebianArchiveState.defaultSnapshotURL
        do {
            if let bound = try composition.boundValue(of: DebianArchiveState.snapshotURLParameter) {
                baseURL = bound
            } else if let declared = composition.templates.lazy.compactMap({
                $0.parameter(named: DebianArchiveState.snapshotURLParameter)?.defaultWord
            }).first, !declared.isEmpty {
                baseURL = declared
            }
        } catch {
            context.standardError.write(Diagnostic.error(error).rendered(color: context.usesColor))
            throw CommandFailure.reported(.dataError)
        }
        return .snapshot(snapshot, baseURL: baseURL)
    }

    /// Resolves each image once (references written differently but naming the same image are
    /// asked once); after a registry is unreachable or refuses access, its other images are
    /// not tried. Shows progress on a terminal when there is more than one image.
    private static func resolve(
        _ references: [ImageReference], with client: RegistryClient, context: CommandContext
    ) -> (images: [ResolvedImage], failures: [RegistryError]) {
        let showsProgress = context.standardError.isTerminal && references.count > 1
        var images: [ResolvedImage] = []
        var failures: [RegistryError] = []
        var byCanonical: [String: ResolvedImage] = [:]
        var failedHosts: Set<String> = []
        for (index, reference) in references.enumerated() {
            if showsProgress {
                context.standardError.write("\r\u{1B}[K[\(index + 1)/\(references.count)] resolving \(reference.written)")
            }
            if let known = byCanonical[reference.canonical] {
                images.append(ResolvedImage(reference: reference, digest: known.digest, mediaType: known.mediaType))
                continue
            }
            if failedHosts.contains(reference.apiHost.lowercased()) { continue }
            do {
                let image = try client.resolve(reference)
                byCanonical[reference.canonical] = image
                images.append(image)
            } catch {
                failures.append(error)
                if error.kind == .unreachable || error.kind == .authentication {
                    failedHosts.insert(reference.apiHost.lowercased())
                }
            }
        }
        if showsProgress { context.standardError.write("\r\u{1B}[K") }
        return (images, failures)
    }

    /// The network settings of a `lock` run, checked before anything is read or sent.
    struct Settings {
        var proxy: ProxyConfiguration
        var proxyAuthentication: ProxyAuthentication
        var caFile: String?
        var insecureRegistries: [String]
        var credentials: RegistryCredentialStore
        var connectTimeout: Double
        var maxTime: Double
        /// `--snapshot`: `now` or `YYYYMMDDTHHMMSSZ`.
        var snapshot: String?
        /// The build's Debian architecture.
        var architecture: String

        init(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) {
            proxy = ProxyConfiguration(
                proxy: arguments.value("--proxy"), noProxy: arguments.value("--noproxy"), environment: context.environment)
            proxyAuthentication = try ProxyAuthenticationOptions.choice(arguments)
            caFile = arguments.value("--cacert").map { Paths.absolute($0, from: context.currentDirectory) }
            insecureRegistries = try arguments.all("--insecure-registry").map { value throws(CommandFailure) in
                guard let reference = try? ImageReference(parsing: value + "/x"), reference.domain == value else {
                    throw CommandFailure.usage(
                        "--insecure-registry takes HOST:PORT as references write it, e.g. localhost:5000, not '\(value)'")
                }
                return value
            }
            credentials = try RegistryAuthOptions.store(arguments, context: context)
            connectTimeout = try SecondsOption.parse(arguments.value("--connect-timeout"), option: "--connect-timeout") ?? 10
            maxTime = try SecondsOption.parse(arguments.value("--max-time"), option: "--max-time") ?? 30
            snapshot = arguments.value("--snapshot")
            if let snapshot, snapshot != "now", !DebianArchiveState.isSnapshotTime(snapshot) {
                throw CommandFailure.usage(
                    "--snapshot takes now or a time YYYYMMDDTHHMMSSZ (UTC), e.g. 20250520T000000Z, not '\(snapshot)'")
            }
            // The same fixed-width form orders as text orders: a later time is a greater string.
            if let snapshot, snapshot != "now", snapshot > DebianSnapshotTime.format(Date()) {
                throw CommandFailure.usage(
                    "--snapshot \(snapshot) is in the future; snapshot.debian.org has no archive state yet")
            }
            architecture = arguments.value("--architecture") ?? DebianSnapshotTime.machineArchitecture
            // bookworm's release architectures (Debian 12 release notes, section 2.1).
            let architectures = ["amd64", "arm64", "armel", "armhf", "i386", "mips64el", "mipsel", "ppc64el", "s390x"]
            guard architectures.contains(architecture) else {
                throw CommandFailure.usage(
                    "--architecture takes one of bookworm's architectures (\(architectures.joined(separator: ", "))), not '\(architecture)'"
                )
            }
        }
    }
}
