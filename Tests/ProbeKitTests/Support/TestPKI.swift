import Foundation
import TestSupport

/// Certificates made with the `openssl` command for the TLS tests, once per test process.
///
/// - `ca.pem`: "Probe Test CA", the issuer of the leaves below except `selfsigned`;
/// - `good`: `CN=localhost`, SANs `DNS:localhost`, `IP:127.0.0.1`, valid two days;
/// - `other`: `CN=other.test`, SAN `DNS:other.test` only (a host-name mismatch for 127.0.0.1);
/// - `expired`: valid 2020-01-01 to 2020-01-02; `notyet`: valid from 2099;
/// - `selfsigned`: like `good`, but its own issuer.
struct TestPKI: Sendable {
    let directory: String

    static let shared = Result { try TestPKI() }

    var caPath: String { directory + "/ca.pem" }
    func certificatePath(_ name: String) -> String { directory + "/\(name).pem" }
    func keyPath(_ name: String) -> String { directory + "/\(name).key" }
    static let leafNames = ["good", "other", "expired", "notyet", "selfsigned"]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-pki-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/newcerts", withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Shell.run(
            ["openssl", "req", "-x509"] + ec + [
                "-keyout", keyPath("ca"), "-out", caPath, "-days", "2", "-subj", "/CN=Probe Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try Shell.run(
            ["openssl", "req", "-x509"] + ec + [
                "-keyout", keyPath("selfsigned"), "-out", certificatePath("selfsigned"), "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        let leaves: [(String, String, String)] = [
            ("good", "localhost", "DNS:localhost,IP:127.0.0.1"), ("other", "other.test", "DNS:other.test"),
            ("expired", "localhost", "DNS:localhost,IP:127.0.0.1"), ("notyet", "localhost", "DNS:localhost,IP:127.0.0.1"),
        ]
        try Data("".utf8).write(to: URL(fileURLWithPath: directory + "/index.txt"))
        try Data("1000\n".utf8).write(to: URL(fileURLWithPath: directory + "/serial"))
        try Data(ChainPKI.caConfig(directory: directory, copyingExtensions: true).utf8).write(
            to: URL(fileURLWithPath: directory + "/ca.cnf"))
        for (name, commonName, names) in leaves {
            let request = directory + "/\(name).csr"
            try Shell.run(
                ["openssl", "req", "-new"] + ec + [
                    "-keyout", keyPath(name), "-out", request, "-subj", "/CN=\(commonName)", "-addext", "subjectAltName=\(names)",
                ])
            let dates: [String]
            switch name {
            case "expired": dates = ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"]
            case "notyet": dates = ["-startdate", "20990101000000Z", "-enddate", "20990102000000Z"]
            default: dates = ["-days", "2"]
            }
            try Shell.run(
                [
                    "openssl", "ca", "-config", directory + "/ca.cnf", "-batch", "-notext", "-cert", caPath,
                    "-keyfile", keyPath("ca"), "-in", request, "-out", certificatePath(name),
                ] + dates)
        }
    }

    /// The `sha256//BASE64` pin of a certificate's public key (`CURLOPT_PINNEDPUBLICKEY`).
    func pin(_ name: String) throws -> String {
        let digest = try Shell.run([
            "sh", "-c",
            "openssl x509 -in '\(certificatePath(name))' -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64",
        ])
        return "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs a command and returns its standard output.
enum Shell {
    struct Failure: Error, CustomStringConvertible {
        let command: [String]
        let status: Int32
        let stderr: String
        var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs `/usr/bin/env ARGUMENTS...` with the test's environment, killed after a minute.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let run = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, limit: .seconds(60))
        guard run.status == 0 else { throw Failure(command: arguments, status: run.status, stderr: run.stderr) }
        return run.stdout
    }
}
