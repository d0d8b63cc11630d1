import DockerfileSyntax
import Foundation
import ProbeKit
import StageKit

/// `stagebuild lock`: resolves every image of the composition to a digest through the registry
/// HTTP API v2 and writes `stagebuild.lock` beside the Stagefile; `--check` tells, without
/// network access, whether the lockfile is current.
enum LockCommand: Subcommand {
    static let name = "lock"
    static let summary = "Pin every image to a digest and every apt package pin to its .deb; write stagebuild.lock."
    static let usage = """
        lock [STAGEFILE] [--check [--online]] [--stages DIR]... [--snapshot TIME|now] [--update-packages] [--architecture ARCH] [--require-verified-packages] [--proxy URL] [--noproxy LIST] [--cacert FILE] \
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

        Packages: every apt-get install (or apt install) operand NAME=VERSION in a RUN of
        the Stagefile or a template is looked up in the apt archives its build stage reads, as
        the templates placed in that stage declare them (# apt-archive: debian, ubuntu or
        repository; a stage FROM another stage reads that one's): the debian template's
        release (DEBIAN_RELEASE) at deb.debian.org or at one snapshot.debian.org moment
        (DEBIAN_SNAPSHOT), the ubuntu template's (UBUNTU_RELEASE, UBUNTU_SNAPSHOT at
        snapshot.ubuntu.com), and third-party repositories the apt-repository template adds
        with their signing key from the build context. Each suite's InRelease is checked with
        gpgv against the archive's keyring (the text gpgv verified is what is read), and each
        component's Packages.xz (or Packages) index against the SHA-256 InRelease lists. The
        lockfile records per pin the name, version, architecture, archive, suite, .deb path and
        the .deb's SHA-256. A version a declared archive lacks, where its stage reads nothing
        else, is an error before anything is written, naming the pin, the archive and the
        versions it has. A pin lock cannot check (no template declares its stage's archive,
        the stage adds apt sources itself, or -t names a suite nobody declares) is listed with
        what to declare and recorded as unverified; the run still pins every image and every
        other package (--require-verified-packages makes it exit 1, for CI). --snapshot now (or
        YYYYMMDDTHHMMSSZ) records that moment for every snapshot parameter the Stagefile does
        not give, and compose writes it; --architecture is the build's (default: this machine's,
        as dpkg --print-architecture names it). --update-packages moves every snapshot to now
        (or to --snapshot TIME), rewrites each pin where the Stagefile or template writes it to
        the newest version its stage's archives hold there (every other byte kept; the
        Stagefile's own snapshot values too), prints old -> new per package, then locks.

        Writes stagebuild.lock beside the Stagefile, atomically and only when its content
        changes: JSON with sorted keys, per image the reference as written, its full name, the
        digest and the media type; per package pin its archive entry; the snapshot moments;
        the unverified pins; per template the SHA-256 of its file; a digest of all inputs. On any error an existing lockfile is left as it was. `compose` then writes every
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
        is stale is named) or, with --online, an entry its registry or archive does not serve,
        or --require-verified-packages found a pin unverified, 64 usage, 65 bad input (a Stagefile, template or lockfile error, an
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
            help: "Resolve apt packages at this snapshot moment (YYYYMMDDTHHMMSSZ or now) and record it."),
        ArgumentScanner.Option(
            names: ["--update-packages"], takesValue: false,
            help: "Move every snapshot to now (or --snapshot) and rewrite every pin to the version there."),
        ArgumentScanner.Option(
            names: ["--architecture"], takesValue: true, valueName: "ARCH",
            help: "The build's architecture as dpkg names it, e.g. amd64 (default: this machine's)."),
        ArgumentScanner.Option(
            names: ["--require-verified-packages"], takesValue: false,
            help: "Exit 1 when a package pin cannot be checked (no template declares its archive); for CI."),
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
            let time = settings.snapshot.flatMap { $0 == "now" ? nil : $0 } ?? SnapshotTime.format(context.now())
            let input = try StagefileInput.load(arguments, context: context)
            try PackageLocking.updatePackages(
                input, to: time, resolver: resolver(settings, input: input, context: context), context: context)
            settings.snapshot = time
        }
        return try lock(arguments, settings: settings, context: context)
    }

    /// `lock` proper: resolves and writes the lockfile, or checks it with `--check`.
    private static func lock(
        _ arguments: ArgumentScanner.Arguments, settings: Settings, context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        let input = try StagefileInput.load(arguments, context: context)
        let lock = input.lock
        let lockName = lock.display(lock.path)
        let inputs: LockInputs
        let first: Composition
        do {
            first = try input.composer.composition(of: input.stagefile)
            inputs = try first.lockInputs()
        } catch {
            throw CommandFailure(error)
        }

        if arguments.has("--check") {
            return try check(input, settings: settings, online: arguments.has("--online"), context: context)
        }
        guard !arguments.has("--online") else {
            throw CommandFailure.usage("--online goes with --check: it verifies the lockfile's entries where they come from")
        }

        let existing = try lock.loadForRewrite(context: context)
        let untouched = "\(lockName) was \(lock.exists(context) ? "not changed" : "not written").\n"
        let images = try resolveImages(of: first, inputs: inputs, settings: settings, untouched: untouched, context: context)
        let snapshots = try PackageLocking.snapshots(
            for: first, inputs: inputs, asked: settings.snapshot, locked: existing?.snapshots ?? [:],
            now: SnapshotTime.format(context.now()))
        let composition: Composition
        do {
            composition = try input.composer.composition(of: input.stagefile, snapshots: snapshots)
        } catch {
            throw CommandFailure(error)
        }
        let packages = try resolvePackages(
            of: composition, input: input, settings: settings, untouched: untouched, context: context)
        let lockedInputs: LockInputs
        do {
            lockedInputs = try lock.inputs(of: composition, architecture: settings.architecture, context: context)
        } catch {
            throw CommandFailure(error)
        }
        let lockfile = Lockfile(
            inputs: lockedInputs, resolved: images, packages: packages.resolved,
            unverifiedPackages: packages.unverified.map(\.pin.written), snapshots: snapshots)
        let changed: Bool
        do {
            changed = try context.fileSystem.write(lockfile.text, to: lock.path)
        } catch {
            throw CommandFailure.unwritable(lockName, error)
        }
        for reference in inputs.images {
            guard let image = lockfile.images[reference.written] else { continue }
            context.standardOutput.write("\(reference.written) \(image.digest)\n")
        }
        for pin in inputs.packages {
            guard let package = lockfile.packages[pin] else { continue }
            context.standardOutput.write("\(pin) \(package.architecture) \(package.suite) sha256:\(package.sha256)\n")
        }
        for line in PackageLocking.archiveLines(composition.packageStages) { context.standardOutput.write(line + "\n") }
        context.standardOutput.write("\(changed ? "wrote" : "unchanged:") \(lockName) (\(counts(inputs, lockfile)))\n")
        if settings.requiresVerifiedPackages && !lockfile.unverifiedPackages.isEmpty {
            throw CommandFailure.error(
                .checkFailed,
                "\(lockfile.unverifiedPackages.count) package pin(s) are unverified, and --require-verified-packages asks "
                    + "for none")
        }
        return .success
    }

    /// Each image's digest from its registry, through the proxy its host's route names.
    ///
    /// - Throws: `CommandFailure`: 64 for a proxy setting that cannot route a registry; 69 when a
    ///   registry cannot be reached, 65 for an image it does not hold, each at the first place
    ///   the image is written, and `untouched` after them.
    private static func resolveImages(
        of first: Composition, inputs: LockInputs, settings: Settings, untouched: String, context: CommandContext
    ) throws(CommandFailure) -> [ResolvedImage] {
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
            let reports = resolution.failures.map { failure -> CommandFailure.Report in
                // At the first place the image is written, as compilers report.
                let mention = first.images.first { $0.written == failure.image }
                guard let mention, let place = first.source(of: mention) else { return .message(failure.description) }
                return .diagnostic(
                    Diagnostic(
                        file: place.file, line: place.location.line, column: place.location.column, severity: "error",
                        message: failure.description))
            }
            let unavailable = resolution.failures.contains { $0.kind != .unknownManifest }
            throw CommandFailure(exitCode: unavailable ? .unavailable : .dataError, reports: reports, detail: untouched)
        }
        return resolution.images
    }

    /// Each package pin resolved in the apt archives its build stage declares; a pin no
    /// declared archive can check is warned about as unverified.
    ///
    /// - Throws: `CommandFailure`: 65 for a key the build context lacks, a bad declaration or a
    ///   package no archive holds; 69 when an archive cannot be reached; `untouched` after them.
    private static func resolvePackages(
        of composition: Composition, input: StagefileInput, settings: Settings, untouched: String, context: CommandContext
    ) throws(CommandFailure) -> StagePackageResolution {
        try PackageLocking.checkKeys(of: composition.packageStages, in: input.directory, context: context)
        let packages: StagePackageResolution
        do {
            packages = try StagePackageResolution(
                composition.packageStages, resolver: resolver(settings, input: input, context: context))
        } catch {
            throw CommandFailure.errors(
                error.kind == .declaration ? .dataError : .unavailable, [error.message], detail: untouched)
        }
        guard packages.missing.isEmpty else {
            throw CommandFailure.errors(.dataError, packages.missing, detail: untouched)
        }
        for unverified in packages.unverified {
            let pin = unverified.pin
            context.warn(
                "\(pin.file):\(pin.location.line):\(pin.location.column): package pin \(pin.written) is not checked: "
                    + "\(unverified.why); to check it, \(unverified.declare)")
        }
        return packages
    }

    /// `--check`: the lockfile against the composition at its snapshots, offline; with
    /// `--online`, every entry where it comes from too.
    private static func check(
        _ input: StagefileInput, settings: Settings, online: Bool, context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        let lock = input.lock
        let lockName = lock.display(lock.path)
        let existing = try lock.load(context: context)
        let composition: Composition
        let inputs: LockInputs
        do {
            composition = try input.composer.composition(of: input.stagefile, snapshots: existing?.snapshots ?? [:])
        } catch {
            throw CommandFailure(error)
        }
        // A key the build context lacks is the same error as for lock, not a stale lockfile.
        try PackageLocking.checkKeys(of: composition.packageStages, in: input.directory, context: context)
        do {
            inputs = try lock.inputs(of: composition, architecture: settings.givenArchitecture, context: context)
        } catch {
            throw CommandFailure(error)
        }
        let reasons = existing?.staleness(against: inputs) ?? [.missing]
        guard reasons.isEmpty, let existing else {
            throw CommandFailure.error(
                .checkFailed,
                "\(lockName) is stale: \(reasons.map(\.description).joined(separator: "; ")); rewrite it with: \(lock.fix)")
        }
        if !existing.unverifiedPackages.isEmpty {
            let count = existing.unverifiedPackages.count
            let message =
                "\(lockName) is current, but \(count) package pin\(count == 1 ? " is" : "s are") unverified (lock found no "
                + "declared apt archive to check \(count == 1 ? "it" : "them") in): "
                + existing.unverifiedPackages.joined(separator: ", ") + "; \(lock.fix) says what to declare"
            guard !settings.requiresVerifiedPackages else { throw CommandFailure.error(.checkFailed, message) }
            context.warn(message)
        }
        guard online else {
            context.standardOutput.write("\(lockName) is current (\(counts(inputs, existing)))\n")
            return .success
        }
        return try checkOnline(
            existing, inputs: inputs, stages: composition.packageStages, input: input, settings: settings, context: context)
    }

    /// `--check --online`: every entry checked where it comes from (``OnlineLockCheck``).
    private static func checkOnline(
        _ lockfile: Lockfile, inputs: LockInputs, stages: [Composition.PackageStage], input: StagefileInput,
        settings: Settings, context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        let lockName = input.lock.display(input.lock.path)
        let client = RegistryClient(
            transport: transport(settings), credentials: settings.credentials, insecureRegistries: settings.insecureRegistries)
        var (failures, notes) = OnlineLockCheck.checkImages(lockfile, client: client)
        failures += OnlineLockCheck.checkPackages(
            lockfile, stages: stages, resolver: resolver(settings, input: input, context: context))
        for note in notes { context.standardError.write("note: \(note)\n") }
        guard failures.isEmpty else {
            throw CommandFailure.errors(
                failures.contains(where: \.isUnavailable) ? .unavailable : .checkFailed,
                failures.map { "\(lockName): \($0.entry): \($0.reason)" })
        }
        context.standardOutput.write("\(lockName) is current and its entries check out online (\(counts(inputs, lockfile)))\n")
        return .success
    }

    /// `2 images, 3 templates`, or `2 images, 4 packages (1 unverified), 3 templates` with pins.
    private static func counts(_ inputs: LockInputs, _ lockfile: Lockfile? = nil) -> String {
        let images = inputs.images.count
        let templates = inputs.templates.count
        let packages = inputs.packages.count
        let unverified = lockfile?.unverifiedPackages.count ?? 0
        let note = unverified == 0 ? "" : " (\(unverified) unverified)"
        let pins = packages == 0 ? "" : "\(packages) package\(packages == 1 ? "" : "s")\(note), "
        return "\(images) image\(images == 1 ? "" : "s"), \(pins)\(templates) template\(templates == 1 ? "" : "s")"
    }

    /// The libcurl transport with the run's proxy, TLS and deadline settings.
    private static func transport(_ settings: Settings, maxBodyBytes: Int = 4 * 1_048_576) -> CurlRegistryTransport {
        var transport = CurlRegistryTransport(
            proxy: settings.proxy, proxyAuthentication: settings.proxyAuthentication, caFile: settings.caFile,
            connectTimeout: settings.connectTimeout, maxTime: settings.maxTime)
        transport.maxBodyBytes = maxBodyBytes
        return transport
    }

    /// The apt resolver of a run: its transport (indexes run to 256 MiB), gpgv with each
    /// archive's keyring, keys in the build context read from the Stagefile's folder.
    private static func resolver(_ settings: Settings, input: StagefileInput, context: CommandContext) -> AptPackageResolver {
        PackageLocking.resolver(
            transport: transport(settings, maxBodyBytes: 256 * 1_048_576), buildContext: input.directory,
            fileSystem: context.fileSystem, deadline: settings.maxTime, architecture: settings.architecture)
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
        /// The build's architecture as Debian and Ubuntu name it.
        var architecture: String
        /// `--architecture` when given: `lock --check` compares it with the lockfile's.
        var givenArchitecture: String?
        /// `--require-verified-packages`: a pin lock cannot check fails the run (exit 1).
        var requiresVerifiedPackages: Bool

        init(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) {
            proxy = ProxyConfiguration(
                proxy: arguments.value("--proxy"), noProxy: arguments.value("--noproxy"), environment: context.environment)
            proxyAuthentication = try ProxyAuthenticationOptions.choice(arguments)
            caFile = try arguments.value("--cacert").map { path throws(CommandFailure) in
                try NetworkOptions.certificateFile(path, option: "--cacert", context: context)
            }
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
            if let snapshot, snapshot != "now", !AptArchive.isSnapshotTime(snapshot) {
                throw CommandFailure.usage(
                    "--snapshot takes now or a time YYYYMMDDTHHMMSSZ (UTC), e.g. 20250520T000000Z, not '\(snapshot)'")
            }
            // The same fixed-width form orders as text orders: a later time is a greater string.
            if let snapshot, snapshot != "now", snapshot > SnapshotTime.format(context.now()) {
                throw CommandFailure.usage(
                    "--snapshot \(snapshot) is in the future; no snapshot service has that archive state yet")
            }
            givenArchitecture = arguments.value("--architecture")
            architecture = givenArchitecture ?? SnapshotTime.machineArchitecture
            // Debian's release architectures (bookworm's and trixie's release notes, section
            // 2.1) and Ubuntu's (amd64, arm64, armhf, ppc64el, riscv64, s390x).
            let architectures = [
                "amd64", "arm64", "armel", "armhf", "i386", "mips64el", "mipsel", "ppc64el", "riscv64", "s390x",
            ]
            guard architectures.contains(architecture) else {
                throw CommandFailure.usage(
                    "--architecture takes one of Debian's and Ubuntu's architectures (\(architectures.joined(separator: ", "))), "
                        + "not '\(architecture)'")
            }
            requiresVerifiedPackages = arguments.has("--require-verified-packages")
            if arguments.has("--check"), arguments.value("--snapshot") != nil {
                throw CommandFailure.usage("--snapshot moves what lock resolves; --check resolves nothing, so leave one out")
            }
        }
    }
}
