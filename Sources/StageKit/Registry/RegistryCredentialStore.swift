/// Where a registry's credentials come from, each scoped to the registry it is for, as container
/// tools scope them: a credential is found for one registry host (or one namespace of it) and
/// is never offered to another.
///
/// Sources, in the order they are asked:
/// 1. entries given on the command line (`--registry-auth HOST=USER:PASS`);
/// 2. auth files in order: the containers auth file buildah, podman and skopeo write
///    (`auth.json`) and Docker's `config.json`. In each file, a `credHelpers` entry for the
///    host names a credential helper (`docker-credential-NAME get`); else `credsStore` names
///    one for every host; else `auths` holds the base64 of `USER:PASS` under the host's key.
///    The first file that knows the host answers.
///
/// Keys are read as containers-auth.json(5) reads them: a key written with `http://` or
/// `https://` (Docker's legacy form, `https://index.docker.io/v1/`) names its host only; any
/// other key is `HOST[:PORT]` or `HOST[:PORT]/NAMESPACE…`, and the longest key that matches a
/// repository wins. Docker Hub's names `docker.io`, `index.docker.io` and
/// `registry-1.docker.io` are one host.
///
/// Source: docker-config-json(5) and the Docker CLI's `cli/config/configfile` (`auths`,
/// `credHelpers`, `credsStore`); containers-auth.json(5); docker-credential-helpers' protocol
/// (`get` reads the server URL on standard input and writes `{"ServerURL","Username","Secret"}`).
public struct RegistryCredentialStore: Sendable {
    /// One place a registry's credentials are found.
    public enum Source: Sendable, Hashable {
        /// A user name and password, read where ``origin`` says.
        case credentials(RegistryCredentials)
        /// A credential helper, `docker-credential-NAME`, asked when the registry asks.
        case helper(String)
    }

    /// One key of a source: the registry (and namespace) it is for.
    public struct Entry: Sendable, Hashable {
        /// `HOST[:PORT]` or `HOST[:PORT]/NAMESPACE…`, the host in lower case, Docker Hub as `docker.io`.
        public var scope: String
        /// The credentials or the helper.
        public var source: Source
        /// Where it was read, for messages: `--registry-auth`, a file's path.
        public var origin: String

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - scope: The registry key as written (see ``RegistryCredentialStore/scope(ofKey:)``).
        ///   - source: The credentials or the helper.
        ///   - origin: Where it was read.
        public init(scope: String, source: Source, origin: String) {
            self.scope = RegistryCredentialStore.scope(ofKey: scope)
            self.source = source
            self.origin = origin
        }
    }

    /// One layer of entries: the command line, or one auth file (its `credsStore` applying to
    /// every host it has no entry for).
    public struct Layer: Sendable, Hashable {
        /// The entries by scope.
        public var entries: [Entry]
        /// The file's `credsStore`: the helper for every host without an entry here.
        public var defaultHelper: String?
        /// Where the layer was read, for messages.
        public var origin: String

        /// Creates a layer.
        ///
        /// - Parameters:
        ///   - entries: The entries.
        ///   - defaultHelper: A helper for every other host, or `nil`.
        ///   - origin: Where it was read.
        public init(entries: [Entry], defaultHelper: String? = nil, origin: String) {
            self.entries = entries
            self.defaultHelper = defaultHelper
            self.origin = origin
        }
    }

    /// The layers in the order they are asked.
    public var layers: [Layer]
    /// Runs credential helpers; `nil` when none may run (a helper entry is then an error).
    public var helperRunner: (any CredentialHelperRunner)?

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - layers: The layers, first asked first.
    ///   - helperRunner: Runs `docker-credential-NAME get`.
    public init(layers: [Layer] = [], helperRunner: (any CredentialHelperRunner)? = nil) {
        self.layers = layers
        self.helperRunner = helperRunner
    }

    /// A store without credentials: every registry is asked anonymously.
    public static let anonymous = RegistryCredentialStore()

    /// Docker Hub's names, which Docker's tools treat as one registry (`docker.io`).
    static let dockerHubNames: Set<String> = ["docker.io", "index.docker.io", "registry-1.docker.io"]

    /// The scope a key names: a key with `http://` or `https://` names its host only; the host
    /// lower-cased, Docker Hub's names as `docker.io`, no trailing `/`.
    ///
    /// - Parameter key: e.g. `https://index.docker.io/v1/`, `Registry.Example:5000/team`.
    /// - Returns: e.g. `docker.io`, `registry.example:5000/team`.
    public static func scope(ofKey key: String) -> String {
        var text = Substring(key)
        var hostOnly = false
        for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) {
            text = text.dropFirst(scheme.count)
            hostOnly = true
        }
        let host = text.prefix { $0 != "/" }.lowercased()
        var rest = hostOnly ? "" : String(text.dropFirst(host.count))
        while rest.hasSuffix("/") { rest.removeLast() }
        return (dockerHubNames.contains(host) ? "docker.io" : host) + rest
    }

    /// The server URL Docker passes a credential helper for a registry: Docker Hub's
    /// `https://index.docker.io/v1/`, any other registry's `HOST[:PORT]`.
    static func helperServerURL(forHost host: String) -> String {
        host == "docker.io" ? "https://index.docker.io/v1/" : host
    }

    /// The credentials for a repository, asked of the layers in order: in each, the longest
    /// scope that is the repository's registry or a namespace above it; then its default helper.
    ///
    /// - Parameter reference: The image reference.
    /// - Returns: The credentials and where they came from; `nil` when no source knows the
    ///   registry (it is asked anonymously).
    /// - Throws: `RegistryCredentialError` for a helper that cannot run or fails.
    public func credentials(
        for reference: ImageReference
    ) throws(RegistryCredentialError) -> (credentials: RegistryCredentials, origin: String)? {
        let host = Self.scope(ofKey: reference.domain)
        let repository = host + "/" + reference.path
        for layer in layers {
            let matching = layer.entries.filter { repository == $0.scope || repository.hasPrefix($0.scope + "/") }
            if let entry = matching.max(by: { $0.scope.count < $1.scope.count }) {
                switch entry.source {
                case .credentials(let credentials):
                    return (credentials, entry.origin)
                case .helper(let name):
                    if let found = try ask(helper: name, host: host) { return (found, "docker-credential-\(name)") }
                    return nil
                }
            }
            if let helper = layer.defaultHelper {
                if let found = try ask(helper: helper, host: host) { return (found, "docker-credential-\(helper)") }
                return nil
            }
        }
        return nil
    }

    /// Asks a helper; `nil` when it knows no credentials for the host.
    private func ask(helper: String, host: String) throws(RegistryCredentialError) -> RegistryCredentials? {
        guard let helperRunner else {
            throw RegistryCredentialError("credential helper docker-credential-\(helper) cannot run here")
        }
        return try helperRunner.credentials(helper: helper, serverURL: Self.helperServerURL(forHost: host))
    }
}

/// Runs a credential helper, `docker-credential-NAME get` (docker-credential-helpers'
/// protocol): the one side effect of ``RegistryCredentialStore``, chosen by the CLI.
public protocol CredentialHelperRunner: Sendable {
    /// Asks a helper for a server's credentials.
    ///
    /// - Parameters:
    ///   - helper: The helper's name, e.g. `pass` for `docker-credential-pass`.
    ///   - serverURL: The server as Docker names it, e.g. `registry.example:5000`.
    /// - Returns: The credentials; `nil` when the helper says it has none.
    /// - Throws: `RegistryCredentialError` for a helper missing, failing or too slow.
    func credentials(helper: String, serverURL: String) throws(RegistryCredentialError) -> RegistryCredentials?
}

/// Credentials that cannot be read: an auth file that is not what Docker or the containers
/// tools write, a helper that fails. Never holds a secret.
public struct RegistryCredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the file or helper.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameter reason: What is wrong.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
