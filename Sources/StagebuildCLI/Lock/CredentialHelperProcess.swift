import Foundation
import JSONReader
import StageKit

/// Runs a Docker credential helper as Docker does: `docker-credential-NAME get`, found on
/// `PATH`, the server URL on its standard input, and its answer
/// `{"ServerURL": …, "Username": …, "Secret": …}` on standard output; an answer of
/// `credentials not found` means the helper has none for that server.
///
/// Source: docker/docker-credential-helpers, `client/client.go` (`Get`) and
/// `credentials/error.go` (`errCredentialsNotFoundMessage`).
struct CredentialHelperProcess: CredentialHelperRunner {
    /// The `PATH` the helper is looked up in.
    var searchPath: String
    /// The environment the helper runs with (a helper reads `HOME`, `PASSWORD_STORE_DIR`, …).
    var environment: [String: String]
    /// The longest a helper may run, in seconds.
    var deadline: Double

    func credentials(helper: String, serverURL: String) throws(RegistryCredentialError) -> RegistryCredentials? {
        let program = "docker-credential-" + helper
        guard let path = ChildProcess.find(program, in: searchPath) else {
            throw RegistryCredentialError("the credential helper \(program) is not on PATH")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(
                program: path, arguments: ["get"], environment: environment, input: Array((serverURL + "\n").utf8),
                deadline: deadline
            ).run()
        } catch {
            throw RegistryCredentialError(error.reason)
        }
        let said = String(decoding: result.output + result.errorOutput, as: UTF8.self).trimmingLineWhitespace()
        guard result.status == 0 else {
            if said.lowercased().contains("credentials not found") { return nil }
            // Its words, not its output as such: a failing helper could echo what it read.
            throw RegistryCredentialError("\(program) get failed for \(serverURL) (exit \(result.status))")
        }
        guard let answer = try? JSONDocument.parse(result.output), let user = answer[member: "Username"]?.stringValue,
            let secret = answer[member: "Secret"]?.stringValue
        else {
            throw RegistryCredentialError("\(program) get answered no JSON with Username and Secret for \(serverURL)")
        }
        if user == "<token>" {
            throw RegistryCredentialError(
                "\(program) holds an identity token for \(serverURL) (a browser or SSO login), which stagebuild cannot send "
                    + "as a password; log in with a user name and password or access token")
        }
        return RegistryCredentials(user: user, password: secret)
    }
}
