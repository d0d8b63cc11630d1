import Foundation
import Testing

/// The squid test password, given every way a user can give it, never appears in any output
/// format, on stdout or stderr, in success, failure or usage errors (issue 3, "Done when", last
/// bullet; "Secrets").
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct SecretRedactionTests {
    /// The forms of the secret a leak could take.
    static func secrets(_ servers: E2EServers) -> [String] {
        let password = servers.squidPassword
        return [
            password, percentEncoded(password),
            Data(servers.squidCredentials.utf8).base64EncodedString(),
        ]
    }

    /// Every character percent-encoded, e.g. `e2e` -> `%65%32%65`: a form no redaction of the
    /// literal text would catch.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { String(format: "%%%02X", $0) }.joined()
    }

    /// The runs of one format, each with its expected exit status.
    static func invocations(_ servers: E2EServers) -> [(arguments: [String], status: Int32)] {
        let credentials = servers.squidCredentials
        let user = servers["SQUID_AUTH_USER"]
        let password = servers.squidPassword
        let valid = servers.url("https", "localhost", "TLS_VALID_PORT")
        let basic = Data(credentials.utf8).base64EncodedString()
        return [
            // Success and failure through the authenticating squid, with credentials in headers
            // and in the target URL's user info too.
            (
                [
                    "--proxy", servers.proxy("SQUID_AUTH_PORT", credentials: credentials), "--cacert", servers["CA_CERT"],
                    "-H", "Authorization: Bearer \(password)", "-H", "Proxy-Authorization: Basic \(basic)", valid,
                    "http://\(credentials)@127.0.0.1:\(servers["HTTP_PORT"])/",
                    servers.url("https", "localhost", "TLS_EXPIRED_PORT"),
                ], 1
            ),
            // The password percent-encoded in the proxy URL (curl decodes it; squid accepts it).
            (
                [
                    "--proxy", servers.proxy("SQUID_AUTH_PORT", credentials: user + ":" + percentEncoded(password)),
                    "--cacert", servers["CA_CERT"], valid,
                ], 0
            ),
            // Failures whose messages name the proxy: unresolvable, refused, forbidden.
            (["--proxy", "http://\(credentials)@\(unresolvableHost):3128", "--connect-timeout", "2", valid], 1),
            (["--proxy", servers.proxy("CLOSED_PORT", credentials: credentials), "--connect-timeout", "2", valid], 1),
            (["--proxy", servers.proxy("SQUID_ACL_PORT", credentials: credentials), "--cacert", servers["CA_CERT"], valid], 1),
            // A usage error that quotes the bad proxy URL.
            (["--proxy", "http://\(credentials)@127.0.0.1:not-a-port", valid], 64),
        ]
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["text", "json", "junit"])
    func proxyPasswordAppearsInNoOutput(format: String) async throws {
        let servers = try E2EServers.current()
        let secrets = Self.secrets(servers)
        let runs = try await withThrowingTaskGroup(of: (StagebuildProcess.Run, Int32).self) { group in
            for invocation in Self.invocations(servers) {
                group.addTask {
                    let run = try await StagebuildProcess.run(["probe", "--format", format] + invocation.arguments)
                    return (run, invocation.status)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (run, status) in runs {
            #expect(run.status == status && !run.signalled && !run.killed, "\(run.summary)")
            #expect(!run.output.isEmpty, "\(run.summary)")
            for secret in secrets {
                #expect(!run.stdout.contains(secret), "stdout shows \(secret)\n\(run.summary)")
                #expect(!run.stderr.contains(secret), "stderr shows \(secret)\n\(run.summary)")
            }
        }
    }
}
