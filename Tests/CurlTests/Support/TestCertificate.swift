import Foundation
import TestSupport

/// A self-signed certificate and key made with the `openssl` command for the TLS tests.
///
/// Subject `CN=localhost`, subject alternative names `DNS:localhost` and `DNS:probe.test`, no IP
/// address: `https://127.0.0.1` does not match it. Valid for two days from now.
struct TestCertificate: Sendable {
    let directory: String
    var certificatePath: String { directory + "/cert.pem" }
    var keyPath: String { directory + "/key.pem" }

    /// The certificate of the whole test process, made once.
    static let shared = Result { try TestCertificate() }

    init() throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("curl-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Shell.run(
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,DNS:probe.test")
    }

    /// The certificate's public key pin, `"sha256//" + base64(SHA-256(SubjectPublicKeyInfo DER))`,
    /// the form of `CURLOPT_PINNEDPUBLICKEY`.
    func publicKeyPin() throws -> String {
        let digest = try Shell.run(
            "sh", "-c",
            "openssl x509 -in '\(certificatePath)' -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64")
        return "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs a command and returns its standard output.
enum Shell {
    struct Failure: Error {
        let command: [String]
        let status: Int32
    }

    /// Runs `/usr/bin/env ARGUMENTS...` with the test's environment, killed after a minute.
    @discardableResult
    static func run(_ arguments: String...) throws -> String {
        let run = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, limit: .seconds(60))
        guard run.status == 0 else { throw Failure(command: arguments, status: run.status) }
        return run.stdout
    }
}
