import ProbeKit

/// Fixed results covering every block shape of the reports: the input of the golden tests.
enum ReportSamples {
    static let proxy = ProxyServer(
        scheme: .http, host: "127.0.0.1", port: 3128, credentials: ProxyCredentials(user: "alice", password: "pr0xy-S3cret"))

    static var results: [ProbeResult] {
        get throws {
            var results = [
                ProbeResult(
                    target: "https://localhost:8443/health", method: "GET", engine: "curl",
                    route: .proxy(proxy, source: .option("--proxy")), outcome: .succeeded,
                    warnings: [
                        "domain name not verified (--no-validate-domain-name): the certificate names other.test, not localhost; with domain-name validation on, this call fails with host name mismatch"
                    ],
                    httpStatus: 200, connectStatus: 200,
                    tls: TLSFacts(
                        chainVerified: true, nameVerified: false, subject: "CN = other.test",
                        subjectAlternativeNames: ["DNS:other.test"],
                        issuer: "CN = Probe Test CA", notAfter: "Jan  2 03:04:05 2026 GMT"),
                    timings: ProbeTimings(dns: 0.012, connect: 0.25, tls: 4.5, firstByte: 6.125, total: 6.5),
                    remoteAddress: "127.0.0.1:3128"),
                ProbeResult(
                    target: "https://127.0.0.1:8443/health", method: "GET", engine: "curl",
                    route: .proxy(proxy, source: .option("--proxy")),
                    outcome: .failed(
                        .hostNameMismatch(
                            hop: .target, host: "127.0.0.1", names: ["other.test"],
                            certificateFrom: InterceptionProducts.origin(issuer: "CN = Probe Test CA", throughProxy: true))),
                    message: FailureReason.hostNameMismatch(
                        hop: .target, host: "127.0.0.1", names: ["other.test"],
                        certificateFrom: InterceptionProducts.origin(issuer: "CN = Probe Test CA", throughProxy: true)
                    )
                    .message,
                    connectStatus: 200,
                    tls: TLSFacts(
                        chainVerified: true, nameVerified: false, subject: "CN = other.test",
                        subjectAlternativeNames: ["DNS:other.test"],
                        issuer: "CN = Probe Test CA", notAfter: "Jan  2 03:04:05 2026 GMT"),
                    timings: ProbeTimings(dns: 0.01, connect: 0.2, total: 3.25), remoteAddress: "127.0.0.1:3128"),
                ProbeResult(
                    target: "https://api.example.test/", method: "GET", engine: "curl",
                    route: .proxy(
                        ProxyServer(scheme: .http, host: "proxy.internal", port: 3128), source: .environment("https_proxy")),
                    outcome: .failed(
                        .proxyAuthenticationRequired(
                            status: "407 Proxy Authentication Required", challenges: ["Basic realm=\"corp <main> & co\""],
                            user: nil,
                            authentication: .basic, onConnect: true, source: .environment("https_proxy"))),
                    message:
                        "the proxy answered CONNECT with 407 Proxy Authentication Required and asks for Basic realm=\"corp <main> & co\"; no credentials were sent",
                    connectStatus: 407, timings: ProbeTimings(dns: 1, connect: 1.5, total: 2), remoteAddress: "10.0.0.3:3128"),
                ProbeResult(
                    target: "http://api.internal/status", method: "HEAD", repetition: 2, engine: "curl",
                    route: .direct(
                        .bypassed(NoProxyMatch(entry: ".internal", host: "api.internal", source: .environment("NO_PROXY")))),
                    outcome: .failed(.unexpectedStatus(status: "503 Service Unavailable", code: 503, expected: .default)),
                    message: "the status 503 Service Unavailable is not among the expected 200-399", httpStatus: 503,
                    timings: ProbeTimings(dns: 0.5, connect: 0.75, firstByte: 2, total: 2.25), remoteAddress: "[fd00::5]:80"),
                .cancelled(
                    try ProbeRequest(parsing: "https://slow.test/"), engine: "curl", route: .direct(.noProxyConfigured),
                    cause: .interrupted, inFlight: true),
                .cancelled(
                    try ProbeRequest(parsing: "https://later.test/"), engine: "urlsession", route: .direct(.noProxyConfigured),
                    cause: .deadline(seconds: 5), inFlight: false),
            ]
            // The 503 came after a redirect (-L): each hop with its own route and timings.
            var moved = RedirectHop(
                request: try ProbeRequest(parsing: "http://api.internal/status", method: "HEAD"), route: results[3].route,
                httpStatus: 301, location: "http://api.internal/status/")
            moved.timings = ProbeTimings(dns: 0.5, connect: 0.75, firstByte: 1, total: 1.25)
            results[3].hops = [
                moved,
                RedirectHop(
                    results[3], request: try ProbeRequest(parsing: "http://api.internal/status/", method: "HEAD"), location: nil),
            ]
            results[3].redirects = [ProbeRedirect(status: 301, location: "http://api.internal/status/")]
            // What the four stacks make of the certificate that names another host.
            results[1].appleClients = AppleClientVerdicts.verdicts(
                for: TrustFacts(chain: .trusted, nameMatches: false), policy: SecurityPolicy())
            // A PAC script whose first proxy was down: the second carried the call.
            let answer = PACAnswer(parsing: "PROXY down.corp.test:3128; PROXY proxy.corp.test:8080; DIRECT")
            var viaPAC = ProbeResult(
                target: "http://intranet.corp.test/", method: "GET", engine: "curl",
                route: answer.entries[1].route, outcome: .succeeded, httpStatus: 200,
                timings: ProbeTimings(dns: 0.5, connect: 1.25, tls: nil, firstByte: 3.5, total: 12.0),
                remoteAddress: "192.0.2.8:8080")
            viaPAC.pac = PACDecision(
                script: "http://wpad.corp.test/wpad.dat", answer: answer.text, unreadable: [],
                entries: [
                    PACAttempt(
                        entry: answer.entries[0], state: .failedOver,
                        failure: .proxyUnreachable(
                            proxyAddress: "down.corp.test:3128", source: .pac(entry: answer.entries[0].description),
                            tunnel: false, detail: "Connection refused")),
                    PACAttempt(entry: answer.entries[1], state: .ended),
                    PACAttempt(entry: answer.entries[2], state: .notTried),
                ])
            results.append(viaPAC)
            return results
        }
    }
}
