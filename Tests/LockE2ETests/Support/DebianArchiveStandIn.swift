import Foundation
import Testing

/// What `Tests/e2e/debian-archive/start STATE_DIR` serves on loopback: the genuine signed
/// InRelease and Packages.xz files of Debian 12's suites, in snapshot.debian.org's layout and
/// the live one, read from `STATE_DIR/env` (keys in the script's header).
///
/// The suite runs only when `STAGEBUILD_DEBIAN_ARCHIVE_STATE` names such a folder;
/// `scripts/test` starts the stand-in and sets it.
struct DebianArchiveStandIn: Sendable {
    /// The environment variable that names the state folder.
    static let variable = "STAGEBUILD_DEBIAN_ARCHIVE_STATE"

    /// Whether the variable is set.
    static let isConfigured = !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty

    /// The stand-in of this test process, read once.
    static let shared = Result { try DebianArchiveStandIn(state: ProcessInfo.processInfo.environment[variable] ?? "") }

    static let requiredKeys = [
        "STATE_DIR", "ARCHIVE_PORT", "SNAPSHOT", "MAIN_PACKAGE", "MAIN_VERSION", "MAIN_SHA256", "MAIN_FILENAME",
        "SECURITY_PACKAGE", "SECURITY_VERSION", "TEST_KEYRING", "TEST_KEY_ASC", "OTHER_KEY_ASC", "UBUNTU_PACKAGE",
        "UBUNTU_VERSION", "VENDOR_PACKAGE", "VENDOR_VERSION", "VENDOR_SHA256",
    ]

    let values: [String: String]

    init(state: String) throws {
        values = try StateEnvironment.read(state: state, requiredKeys: Self.requiredKeys)
    }

    subscript(key: String) -> String { values[key] ?? "" }

    /// `http://127.0.0.1:PORT`, the stand-in's snapshot service (`DEBIAN_SNAPSHOT_URL`).
    var url: String { "http://127.0.0.1:" + self["ARCHIVE_PORT"] }

    /// The pin of the bookworm package, e.g. `zlib1g=1:1.2.13.dfsg-1`.
    var mainPin: String { self["MAIN_PACKAGE"] + "=" + self["MAIN_VERSION"] }

    /// The pin of the bookworm-security package.
    var securityPin: String { self["SECURITY_PACKAGE"] + "=" + self["SECURITY_VERSION"] }

    /// The access log lines written since `mark` (a byte count of the log taken before).
    func accessLog(since mark: Int) -> [String] {
        let data = FileManager.default.contents(atPath: self["STATE_DIR"] + "/logs/nginx-access.log") ?? Data()
        return String(decoding: data.dropFirst(mark), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The access log's size now, in bytes.
    var accessLogMark: Int { FileManager.default.contents(atPath: self["STATE_DIR"] + "/logs/nginx-access.log")?.count ?? 0 }
}
