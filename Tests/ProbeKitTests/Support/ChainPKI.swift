import Foundation
import TestSupport

/// Certificate chains made with the `openssl` command for the trust-rule tests: a root ("Chain
/// Test Root"), intermediates and leaves issued by `openssl ca` with the extensions, key, digest
/// and validity dates each test asks for (`-startdate`/`-enddate`, so a leaf can be issued in
/// 2019 or 2020 whatever today is).
final class ChainPKI: @unchecked Sendable {
    let scratch: Scratch
    /// `openssl ca` rewrites its serial and index files: one issue at a time.
    private let issuing = NSLock()
    var directory: String { scratch.path }
    static let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]

    /// The root's PEM file.
    var rootPath: String { directory + "/root.pem" }

    init() throws {
        scratch = try Scratch(prefix: "chain-pki")
        try FileManager.default.createDirectory(atPath: directory + "/issued", withIntermediateDirectories: true)
        try scratch.write("", to: "index.txt")
        try scratch.write("2000\n", to: "serial")
        try scratch.write(Self.caConfig(directory: directory, copyingExtensions: false), to: "ca.cnf")
        try Shell.run(
            ["openssl", "req", "-x509", "-nodes"] + Self.ec + [
                "-keyout", directory + "/root.key", "-out", rootPath, "-days", "3650", "-subj", "/CN=Chain Test Root",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
    }

    /// An `openssl ca` configuration keeping its files in `directory`: any subject with a CN,
    /// SHA-256 by default, the request's extensions copied or not.
    static func caConfig(directory: String, copyingExtensions: Bool) -> String {
        """
        [ ca ]
        default_ca = issuer
        [ issuer ]
        database = \(directory)/index.txt
        new_certs_dir = \(directory)/\(copyingExtensions ? "newcerts" : "issued")
        serial = \(directory)/serial
        default_md = sha256
        policy = anything
        \(copyingExtensions ? "copy_extensions = copy\n" : "")unique_subject = no
        [ anything ]
        commonName = supplied

        """
    }

    /// `YYYYMMDDHHMMSSZ` for a time `days` from now (negative: in the past).
    static func date(days: Int) -> String { date(Date().addingTimeInterval(Double(days) * 86_400)) }

    /// `YYYYMMDDHHMMSSZ` for a time.
    static func date(_ time: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: time)
    }

    /// Issues a certificate and returns its PEM text.
    ///
    /// - Parameters:
    ///   - name: The file name (and CN unless `subject` is given).
    ///   - issuer: The issuing certificate's name, `"root"` or an intermediate made before.
    ///   - extensions: `openssl` extension lines, e.g. `"extendedKeyUsage=serverAuth"`.
    ///   - key: `openssl req` key options.
    ///   - digest: The signature digest, e.g. `"sha1"`.
    ///   - start: `-startdate`; `end`: `-enddate`.
    @discardableResult
    func issue(
        _ name: String, issuer: String = "root", extensions: [String], key: [String] = ChainPKI.ec, digest: String = "sha256",
        start: String = ChainPKI.date(days: -1), end: String = ChainPKI.date(days: 90)
    ) throws -> String {
        issuing.lock()
        defer { issuing.unlock() }
        try scratch.write("[ ext ]\n" + extensions.joined(separator: "\n") + "\n", to: "\(name).ext")
        try Shell.run(
            ["openssl", "req", "-new", "-nodes"] + key + [
                "-keyout", directory + "/\(name).key", "-out", directory + "/\(name).csr", "-subj", "/CN=\(name)",
            ])
        try Shell.run([
            "openssl", "ca", "-config", directory + "/ca.cnf", "-batch", "-notext", "-cert", directory + "/\(issuer).pem",
            "-keyfile", directory + "/\(issuer).key", "-in", directory + "/\(name).csr", "-out", directory + "/\(name).pem",
            "-md", digest, "-startdate", start, "-enddate", end, "-extfile", directory + "/\(name).ext", "-extensions", "ext",
        ])
        return try String(contentsOfFile: directory + "/\(name).pem", encoding: .utf8)
    }

    /// A server certificate for `localhost` with serverAuth, plus `extra` extension lines.
    static let server = ["subjectAltName=DNS:localhost,IP:127.0.0.1", "extendedKeyUsage=serverAuth"]
    /// An intermediate CA's extensions.
    static let intermediate = ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"]
}
