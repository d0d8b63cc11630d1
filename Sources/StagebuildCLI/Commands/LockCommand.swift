import Foundation
import ProbeKit
import StageKit

/// `stagebuild lock`: resolves every image of the composition to a digest through the registry
/// HTTP API v2 and writes `stagebuild.lock` beside the Stagefile; `--check` tells, without
/// network access, whether the lockfile is current.
enum LockCommand: Subcommand {
    static let name = "lock"
    static let summary = "Pin every image to a digest from its registry; write stagebuild.lock."
    static let usage = """
        lock [STAGEFILE] [--check] [--stages DIR]... [--proxy URL] [--noproxy LIST] [--cacert FILE] \
        [--insecure-registry HOST:PORT]... [--registry-auth USER:PASS] [--connect-timeout S] [--max-time S]
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

        Writes stagebuild.lock beside the Stagefile, atomically and only when its content
        changes: JSON with sorted keys, per image the reference as written, its full name, the
        digest and the media type; per template the SHA-256 of its file; a digest of all
        inputs. On any error an existing lockfile is left as it was. `compose` then writes every
        image as IMAGE:TAG@sha256:DIGEST; `compose --locked` fails while the lockfile is stale.

        --check resolves nothing and uses no network: it says whether the lockfile matches the
        Stagefile's images and the templates' contents.

        Network: the proxy is chosen as curl and `stagebuild probe` choose it (--proxy, else
        https_proxy/HTTPS_PROXY, all_proxy/ALL_PROXY, http_proxy for plain HTTP registries;
        NO_PROXY/no_proxy or --noproxy bypass it). TLS is verified; --cacert adds trusted CAs.
        A registry that asks for a token (Bearer) gets a token request to its token service,
        anonymous unless credentials are given (they go to an HTTPS token service only); one
        that asks for a user name and password (Basic) gets --registry-auth, else
        STAGEBUILD_REGISTRY_AUTH (USER:PASS). Credentials are never printed. Every call has a
        connect deadline (--connect-timeout) and a total deadline (--max-time).

        Exit status: 0 written or current, 1 --check found the lockfile missing or stale (what
        is stale is named), 64 usage, 65 bad input (a Stagefile, template or lockfile error, an
        invalid image reference, an image named through a variable, an unknown repository or
        tag), 69 a registry unreachable, refusing access, or answering wrongly (digest
        mismatch), 74 a file not readable or writable.
        """
    /// The options before the proxy authentication ones in `--help`.
    static let leadingOptions = [
        ArgumentScanner.Option(
            names: ["--check"], takesValue: false,
            help: "Resolve nothing; exit 1 when stagebuild.lock is missing or stale (no network)."),
        CatalogSearchPath.option,
        NetworkOptions.proxy,
        NetworkOptions.noProxy,
    ]
    static let options =
        leadingOptions + ProxyAuthenticationOptions.options + [
            NetworkOptions.caCertificates,
            ArgumentScanner.Option(
                names: ["--insecure-registry"], takesValue: true, valueName: "HOST:PORT",
                help: "Reach this registry over plain HTTP, as written in references (repeatable)."),
            ArgumentScanner.Option(
                names: ["--registry-auth"], takesValue: true, valueName: "USER:PASS",
                help: "Credentials for registries that ask (default: STAGEBUILD_REGISTRY_AUTH)."),
            NetworkOptions.connectTimeout,
            NetworkOptions.maxTime,
        ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) -> ExitCode {
        let settings = try Settings(arguments, context: context)
        if let caFile = settings.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            context.reportError("cannot read --cacert \(arguments.value("--cacert") ?? caFile): no such readable file")
            return .ioError
        }
        let input: StagefileInput
        switch try StagefileInput.load(arguments, context: context) {
        case .success(let loaded): input = loaded
        case .failure(let failure): return failure.code
        }
        let lock = input.lock
        let lockName = lock.display(lock.path)
        let inputs: LockInputs
        do {
            inputs = try input.composer.composition(of: input.stagefile).lockInputs()
        } catch {
            context.standardError.write(Diagnostic.error(error).rendered(color: context.usesColor))
            return error.isReadFailure ? .ioError : .dataError
        }

        if arguments.has("--check") {
            let existing: Lockfile?
            switch lock.load(context: context) {
            case .success(let loaded): existing = loaded
            case .failure(let failure): return failure.code
            }
            let reasons = existing?.staleness(against: inputs) ?? [.missing]
            guard reasons.isEmpty else {
                context.reportError(
                    "\(lockName) is stale: \(reasons.map(\.description).joined(separator: "; ")); rewrite it with: \(lock.fix)")
                return .checkFailed
            }
            context.standardOutput.write("\(lockName) is current (\(counts(inputs)))\n")
            return .success
        }

        for reference in inputs.images {
            do {
                _ = try settings.proxy.route(scheme: "https", host: reference.apiHost)
            } catch {
                throw UsageError(error.description)
            }
        }
        let client = RegistryClient(
            transport: CurlRegistryTransport(
                proxy: settings.proxy, proxyAuthentication: settings.proxyAuthentication, caFile: settings.caFile,
                connectTimeout: settings.connectTimeout, maxTime: settings.maxTime),
            credentials: settings.credentials, insecureRegistries: settings.insecureRegistries)
        let resolution = resolve(inputs.images, with: client, context: context)
        guard resolution.failures.isEmpty else {
            for failure in resolution.failures { context.reportError(failure.description) }
            let unavailable = resolution.failures.contains { $0.kind != .unknownManifest }
            let existed = FileManager.default.fileExists(atPath: lock.path)
            context.standardError.write("\(lockName) was \(existed ? "not changed" : "not written").\n")
            return unavailable ? .unavailable : .dataError
        }

        let lockfile = Lockfile(inputs: inputs, resolved: resolution.images)
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
        context.standardOutput.write("\(changed ? "wrote" : "unchanged:") \(lockName) (\(counts(inputs)))\n")
        return .success
    }

    /// `2 images, 3 templates`.
    private static func counts(_ inputs: LockInputs) -> String {
        let images = inputs.images.count
        let templates = inputs.templates.count
        return "\(images) image\(images == 1 ? "" : "s"), \(templates) template\(templates == 1 ? "" : "s")"
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
        var credentials: RegistryCredentials?
        var connectTimeout: Double
        var maxTime: Double

        init(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) {
            proxy = ProxyConfiguration(
                proxy: arguments.value("--proxy"), noProxy: arguments.value("--noproxy"), environment: context.environment)
            proxyAuthentication = try ProxyAuthenticationOptions.choice(arguments)
            caFile = arguments.value("--cacert").map { Paths.absolute($0, from: context.currentDirectory) }
            insecureRegistries = try arguments.all("--insecure-registry").map { value throws(UsageError) in
                guard let reference = try? ImageReference(parsing: value + "/x"), reference.domain == value else {
                    throw UsageError(
                        "--insecure-registry takes HOST:PORT as references write it, e.g. localhost:5000, not '\(value)'")
                }
                return value
            }
            if let text = arguments.value("--registry-auth") {
                guard let credentials = RegistryCredentials(parsing: text) else {
                    throw UsageError("--registry-auth takes USER:PASS (a user name, a colon, the password)")
                }
                self.credentials = credentials
            } else if let text = context.environment["STAGEBUILD_REGISTRY_AUTH"], !text.isEmpty {
                guard let credentials = RegistryCredentials(parsing: text) else {
                    throw UsageError("STAGEBUILD_REGISTRY_AUTH must be USER:PASS (a user name, a colon, the password)")
                }
                self.credentials = credentials
            }
            connectTimeout = try SecondsOption.parse(arguments.value("--connect-timeout"), option: "--connect-timeout") ?? 10
            maxTime = try SecondsOption.parse(arguments.value("--max-time"), option: "--max-time") ?? 30
        }
    }
}
