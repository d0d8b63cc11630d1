import Foundation
import Testing

/// No secret in any output, by one rule (`probe-trace-shows-cookies-and-api-keys`,
/// `probe-redaction-nested-url-inconsistent`): the trace, the text, JSON and JUnit reports, and
/// expectation messages hide cookies, API keys, URL passwords nested in a query and secret query
/// values, against nginx on loopback.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct SecretRedactionTests {
    static let secrets = [
        "COOKIE-SECRET-2", "APIKEY-SECRET-3", "AUTHTOKEN-SECRET-4", "SETCOOKIESECRET123", "NESTED-PASSWORD", "QUERY-TOKEN-5",
    ]

    @Test(.timeLimit(.minutes(1)), arguments: ["text", "json", "junit"])
    func noSecretReachesAnyFormatOrTheTrace(format: String) async throws {
        let servers = try E2EServers.current()
        let cookie = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/setcookie")
        let nested = servers.url(
            "http", "127.0.0.1", "HTTP_PORT",
            path: "/redirect/to?to=http://svc:NESTED-PASSWORD@127.0.0.2:\(servers["HTTP_PORT"])/echo&access_token=QUERY-TOKEN-5")
        let run = try await StagebuildProcess.run([
            "probe", "-v", "--format", format, "-H", "Cookie: session=COOKIE-SECRET-2", "-H", "X-Api-Key: APIKEY-SECRET-3",
            "-H", "X-Auth-Token: AUTHTOKEN-SECRET-4", "--expect-header", "Set-Cookie=x", cookie, nested,
        ])
        #expect(run.status == 1, "\(run.summary)")
        for secret in Self.secrets {
            #expect(!run.output.contains(secret), "\(secret) in the \(format) run:\n\(run.summary)")
        }
        #expect(run.stderr.contains("Cookie: ***") && run.stderr.contains("X-Api-Key: ***"), "\(run.summary)")
        #expect(run.stderr.contains("Set-Cookie: ***"), "\(run.summary)")
        #expect(run.output.contains("svc:***@127.0.0.2"), "the nested URL shows where its password was")
        #expect(run.output.contains("access_token=***"))
        #expect(run.stdout.contains("the header Set-Cookie has another value than the one expected"), "\(run.summary)")
    }
}
