import StageKit

/// Where `stagebuild lock` finds registry credentials, each for the registry it names
/// (``RegistryCredentialStore``): `--registry-auth HOST=USER:PASS` (repeatable) and
/// `STAGEBUILD_REGISTRY_AUTH` (such entries, one per line) first; then `--registry-auth-file
/// FILE` (repeatable), or, without it, the files container tools write, in the order the
/// containers tools read them: `$REGISTRY_AUTH_FILE`, `$XDG_RUNTIME_DIR/containers/auth.json`,
/// `$XDG_CONFIG_HOME/containers/auth.json` (default `~/.config`), then Docker's
/// `$DOCKER_CONFIG/config.json` (default `~/.docker/config.json`). A default file that does not
/// exist is skipped.
///
/// Source: containers-auth.json(5) ("The default authorization file"), docker-login(1) and
/// Docker's `cli/config` (`DOCKER_CONFIG`).
enum RegistryAuthOptions {
    /// The options `lock --help` lists.
    static let options = [
        ArgumentScanner.Option(
            names: ["--registry-auth"], takesValue: true, valueName: "HOST=USER:PASS",
            help: "Credentials for one registry, sent to it and its own token service only (repeatable)."),
        ArgumentScanner.Option(
            names: ["--registry-auth-file"], takesValue: true, valueName: "FILE",
            help: "Read credentials from this Docker config.json or containers auth.json instead of the default files."),
    ]

    /// The longest a credential helper may run, in seconds.
    static let helperDeadline = 30.0

    /// The store a run uses.
    ///
    /// - Parameters:
    ///   - arguments: The command's arguments.
    ///   - context: The environment and file system.
    /// - Returns: The store, with credential helpers run from `PATH`.
    /// - Throws: `CommandFailure`: 64 for an entry without its registry host (never a credential
    ///   for every registry), 74 for an auth file that cannot be read, 65 for one that is not
    ///   an auth file.
    static func store(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext
    ) throws(CommandFailure)
        -> RegistryCredentialStore
    {
        var given: [RegistryCredentialStore.Entry] = []
        for text in arguments.all("--registry-auth") {
            given.append(try entry(text, origin: "--registry-auth"))
        }
        let fromEnvironment = (context.environment["STAGEBUILD_REGISTRY_AUTH"] ?? "").split(whereSeparator: \.isNewline)
        for line in fromEnvironment where !line.trimmingLineWhitespace().isEmpty {
            given.append(try entry(line.trimmingLineWhitespace(), origin: "STAGEBUILD_REGISTRY_AUTH"))
        }
        var layers = [RegistryCredentialStore.Layer(entries: given, origin: "the command line")]
        let explicit = arguments.all("--registry-auth-file").map { Paths.absolute($0, from: context.currentDirectory) }
        for path in explicit.isEmpty ? defaultFiles(context.environment) : explicit {
            let text: String
            do {
                text = try context.fileSystem.readText(at: path)
            } catch {
                if error.isMissing && explicit.isEmpty { continue }
                throw CommandFailure.unreadable("the auth file \(path)", error)
            }
            do {
                layers.append(try RegistryCredentialStore.Layer(authFile: Array(text.utf8), origin: path))
            } catch {
                throw CommandFailure.error(.dataError, error.reason)
            }
        }
        let helpers = CredentialHelperProcess(
            searchPath: context.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", environment: context.environment,
            deadline: helperDeadline)
        return RegistryCredentialStore(layers: layers, helperRunner: helpers)
    }

    /// The auth files read when `--registry-auth-file` is not given, in order.
    static func defaultFiles(_ environment: [String: String]) -> [String] {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var files: [String] = []
        if let file = environment["REGISTRY_AUTH_FILE"], !file.isEmpty { files.append(file) }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            files.append(runtime + "/containers/auth.json")
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            files.append(config + "/containers/auth.json")
        } else if let home {
            files.append(home + "/.config/containers/auth.json")
        }
        if let docker = environment["DOCKER_CONFIG"], !docker.isEmpty {
            files.append(docker + "/config.json")
        } else if let home {
            files.append(home + "/.docker/config.json")
        }
        return files
    }

    /// Reads `HOST=USER:PASS`; `HOST` as image references write a registry (`docker.io`,
    /// `registry.example:5000`) or as Docker's config keys do (`https://index.docker.io/v1/`).
    static func entry(_ text: String, origin: String) throws(CommandFailure) -> RegistryCredentialStore.Entry {
        let form =
            "\(origin) takes HOST=USER:PASS, the registry the credentials are for and them, e.g. "
            + "registry.example:5000=ci:TOKEN or docker.io=user:TOKEN"
        guard let equals = text.firstIndex(of: "=") else {
            throw CommandFailure.usage("\(form); credentials without a host would go to every registry")
        }
        guard let credentials = RegistryCredentials(parsing: String(text[text.index(after: equals)...])) else {
            throw CommandFailure.usage(
                "\(form); after HOST= comes USER:PASS, a user name, a colon and the password (or token), neither empty")
        }
        let host = String(text[..<equals])
        let scope = RegistryCredentialStore.scope(ofKey: host)
        let registry = String(scope.prefix { $0 != "/" })
        guard registry == "docker.io" || (try? ImageReference(parsing: registry + "/x"))?.domain.lowercased() == registry
        else {
            // Not quoted: an unscoped USER:PASS whose password holds "=" puts part of it before the "=".
            throw CommandFailure.usage(
                "\(form); the text before \"=\" names no registry host (a credential must name its registry)")
        }
        return RegistryCredentialStore.Entry(scope: host, source: .credentials(credentials), origin: origin)
    }
}
