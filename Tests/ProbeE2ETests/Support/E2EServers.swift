import Foundation
import Testing

/// The servers `Tests/e2e/servers/start STATE_DIR` started on loopback, read from
/// `STATE_DIR/env` (`KEY=VALUE` lines; the keys are listed in `Tests/e2e/README.md`).
///
/// The end-to-end suites run only when `STAGEBUILD_E2E_STATE` names such a folder; `scripts/test`
/// starts the servers and sets it.
struct E2EServers: Sendable {
    /// The environment variable that names the state folder.
    static let variable = "STAGEBUILD_E2E_STATE"

    /// Whether the variable is set. When it is, a missing or incomplete `env` fails the tests
    /// instead of skipping them.
    static let isConfigured = !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty

    /// The servers of this test process, read once.
    static let shared = Result { try E2EServers(state: ProcessInfo.processInfo.environment[variable] ?? "") }

    /// The servers, or a test failure that says why they cannot be read.
    static func current() throws -> E2EServers { try shared.get() }

    let values: [String: String]

    init(state: String) throws {
        let text = try String(contentsOfFile: state + "/env", encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let missing = Self.requiredKeys.filter { values[$0] == nil }
        guard missing.isEmpty else { throw E2EServersError.missingKeys(missing, file: state + "/env") }
        self.values = values
    }

    static let requiredKeys = [
        "CA_CERT", "SELF_SIGNED_CERT", "MITM_CA_CERT", "VALID_CERT_PIN", "OTHER_CERT_PIN", "HTTP_PORT", "TLS_VALID_PORT",
        "TLS_VALID_ALT_PORT", "TLS_OTHER_NAME_PORT", "TLS_EXPIRED_PORT", "TLS_NOT_YET_VALID_PORT", "TLS_SELF_SIGNED_PORT",
        "TINYPROXY_PORT", "SQUID_PORT", "SQUID_AUTH_PORT", "SQUID_AUTH_USER", "SQUID_AUTH_PASSWORD", "SQUID_AUTH_OTHER_USER",
        "SQUID_ACL_PORT",
        "MITM_PORT", "MITM_FIXED_PORT", "SILENT_PORT", "CLOSED_PORT", "SLOW_TLS_PORT", "SILENT_TLS_PORT", "TLS_NO_EKU_PORT",
        "TLS_LONG_VALIDITY_PORT",
        "TLS_CN_ONLY_PORT", "TLS_SHA1_PORT", "TLS_RSA1024_PORT", "TLS_CLIENT_CERT_PORT", "CLIENT_CERT", "CLIENT_KEY",
        "OAUTH2_CLIENT_ID", "OAUTH2_CLIENT_SECRET", "OAUTH2_TOKEN",
    ]

    subscript(key: String) -> String { values[key] ?? "" }

    /// `http://127.0.0.1:PORT` for a proxy port key, with optional credentials (given as is).
    func proxy(_ portKey: String, credentials: String? = nil) -> String {
        "http://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(self[portKey])"
    }

    /// `SCHEME://HOST:PORT/PATH` for a server port key.
    func url(_ scheme: String, _ host: String, _ portKey: String, path: String = "/") -> String {
        "\(scheme)://\(host):\(self[portKey])\(path)"
    }

    /// The squid test user's password (random per start).
    var squidPassword: String { self["SQUID_AUTH_PASSWORD"] }

    /// `user:password` of the squid test user.
    var squidCredentials: String { self["SQUID_AUTH_USER"] + ":" + squidPassword }
}

enum E2EServersError: Error, CustomStringConvertible {
    case missingKeys([String], file: String)

    var description: String {
        switch self {
        case .missingKeys(let keys, let file): "\(file) lacks \(keys.joined(separator: ", ")); run Tests/e2e/servers/start again"
        }
    }
}
