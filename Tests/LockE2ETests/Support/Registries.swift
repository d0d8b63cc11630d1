import Foundation
import Testing

/// What `Tests/e2e/registry/start STATE_DIR` started on loopback, read from `STATE_DIR/env`
/// (`KEY=VALUE` lines; the keys are listed in `Tests/e2e/registry/README.md`).
///
/// The suites run only when `STAGEBUILD_REGISTRY_STATE` names such a folder; `scripts/test`
/// starts the registries and sets it.
struct Registries: Sendable {
    /// The environment variable that names the state folder.
    static let variable = "STAGEBUILD_REGISTRY_STATE"

    /// Whether the variable is set. When it is, a missing or incomplete `env` fails the tests
    /// instead of skipping them.
    static let isConfigured = !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty

    /// The registries of this test process, read once.
    static let shared = Result { try Registries(state: ProcessInfo.processInfo.environment[variable] ?? "") }

    /// The registries, or a test failure that says why they cannot be read.
    static func current() throws -> Registries { try shared.get() }

    static let requiredKeys = [
        "STATE_DIR", "OPEN_PORT", "AUTH_PORT", "AUTH_USER", "AUTH_PASSWORD", "TINYPROXY_PORT", "TINYPROXY_LOG", "TAMPER_PORT",
        "CLOSED_PORT", "IMAGE_PATH", "IMAGE_TAG", "IMAGE_DIGEST", "IMAGE_MEDIA_TYPE", "INDEX_TAG", "INDEX_DIGEST",
        "INDEX_MEDIA_TYPE", "AUTH_IMAGE_DIGEST", "BUILDAH_POLICY", "BUILDAH_REGISTRIES_CONF", "TOKEN_REGISTRY_PORT",
        "TOKEN_SERVICE_PORT", "TOKEN_USER", "TOKEN_PASSWORD", "TOKEN_CA", "TOKEN_LOG", "TOKEN_IMAGE_DIGEST", "HELPER_DIR",
        "HELPER_LOG",
    ]

    let values: [String: String]

    init(state: String) throws {
        values = try StateEnvironment.read(state: state, requiredKeys: Self.requiredKeys)
    }

    subscript(key: String) -> String { values[key] ?? "" }

    /// `127.0.0.1:PORT` of a port key, as references and `--insecure-registry` write it.
    func host(_ portKey: String) -> String { "127.0.0.1:" + self[portKey] }

    /// `127.0.0.1:PORT/stagebuild-e2e/tiny:TAG` on the registry of a port key.
    func image(_ portKey: String, tag: String = "1.0") -> String { host(portKey) + "/" + self["IMAGE_PATH"] + ":" + tag }

    /// `user:password` of the htpasswd registry.
    var credentials: String { self["AUTH_USER"] + ":" + self["AUTH_PASSWORD"] }
}

enum RegistriesError: Error, CustomStringConvertible {
    case missingKeys([String], file: String)

    var description: String {
        switch self {
        case .missingKeys(let keys, let file): "\(file) lacks \(keys.joined(separator: ", ")); run Tests/e2e/registry/start again"
        }
    }
}
