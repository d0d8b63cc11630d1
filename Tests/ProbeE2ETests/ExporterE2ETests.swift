import Foundation
import FoundationNetworking
import TestSupport
import Testing

/// `stagebuild exporter` as Prometheus scrapes it, against the real servers: metrics that
/// `promtool check metrics` accepts, the failure's hop and reason as labels, blackbox's own
/// example config loading, and the answers a server owes to bad requests.
@Suite(.enabled(if: E2EServers.isConfigured), .serialized)
struct ExporterE2ETests {
    /// A running exporter with its first stdout line (its URL) read.
    final class RunningExporter {
        let process: BackgroundProcess
        let url: String

        init(config: String, arguments: [String] = []) throws {
            let process = try BackgroundProcess(
                try StagebuildProcess.executable(),
                ["exporter", "--config", config, "--listen", "127.0.0.1:0"] + arguments)
            url = try process.line(within: .seconds(10))
            self.process = process
        }

        /// SIGTERM, and the exit status within 10 s (`nil` when it had to be killed).
        func stop() -> Int32? { process.stop() }
    }

    final class Box: @unchecked Sendable {
        var value: (status: Int, body: String)?
    }

    /// One GET (or another method), bounded by `timeout` seconds.
    static func get(
        _ url: String, headers: [String: String] = [:], timeout: Double = 15, method: String = "GET"
    ) -> (status: Int, body: String)? {
        guard let target = URL(string: url) else { return nil }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.value = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self))
            done.signal()
        }.resume()
        return done.wait(timeout: .now() + timeout + 1) == .success ? box.value : nil
    }

    /// `promtool check metrics` on a page: `nil` when it finds nothing, else what it says.
    static func promtoolProblems(_ page: String) throws -> String? {
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/promtool"), ["check", "metrics"], input: Data(page.utf8), limit: .seconds(30))
        let said = run.output
        return run.status == 0 && said.isEmpty ? nil : said
    }

    /// A config file with `text`, in the temporary folder; its path.
    static func configFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(UUID().uuidString).yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The modules most tests probe with, in the config blackbox 0.23 reads too; each sends
    /// one `User-Agent`, so a target that echoes the request answers both exporters alike
    /// (each names itself otherwise: ``eachExporterNamesItselfInUserAgent()``).
    static func writeConfig(_ servers: E2EServers) throws -> String {
        /// A module asking the e2e token service for its token with `secret`.
        func oauth2(_ name: String, secret: String, path: String = "/oauth2/token") -> String {
            """
              \(name):
                prober: http
                http:
                  headers: {User-Agent: e2e}
                  oauth2:
                    client_id: \(servers["OAUTH2_CLIENT_ID"])
                    client_secret: \(secret)
                    token_url: \(servers.url("http", "127.0.0.1", "HTTP_PORT", path: path))
                    scopes: [probe]

            """
        }
        let text = """
            modules:
              http_2xx:
                prober: http
                timeout: 5s
                http: {headers: {User-Agent: e2e}}
              through_interceptor:
                prober: http
                http:
                  headers: {User-Agent: e2e}
                  proxy_url: \(servers.proxy("MITM_FIXED_PORT"))
                  tls_config: {ca_file: \(servers["CA_CERT"])}
              through_silent_proxy:
                prober: http
                timeout: 1s
                http: {headers: {User-Agent: e2e}, proxy_url: "http://127.0.0.1:\(servers["SILENT_PORT"])"}
              tls_trusted:
                prober: http
                http:
                  headers: {User-Agent: e2e}
                  tls_config: {ca_file: \(servers["CA_CERT"])}
              tls_other_name:
                prober: http
                http:
                  headers: {User-Agent: e2e}
                  tls_config: {ca_file: \(servers["CA_CERT"]), server_name: other.test}
              no_follow:
                prober: http
                http: {headers: {User-Agent: e2e}, follow_redirects: false}
              small_body:
                prober: http
                http: {headers: {User-Agent: e2e}, body_size_limit: 100B}
              client_certificate:
                prober: http
                http:
                  headers: {User-Agent: e2e}
                  tls_config: {ca_file: \(servers["CA_CERT"]), cert_file: \(servers["CLIENT_CERT"]), key_file: \(servers["CLIENT_KEY"])}
                  fail_if_body_not_matches_regexp: ["client certificate CN=localhost"]
            \(oauth2("oauth2", secret: servers["OAUTH2_CLIENT_SECRET"]))\(oauth2("oauth2_refused", secret: "not-the-secret"))\(oauth2("oauth2_form", secret: servers["OAUTH2_CLIENT_SECRET"], path: "/oauth2/token-form"))
              tcp_connect:
                prober: tcp

            """
        return try configFile(text)
    }

    /// Modules with keys newer than blackbox 0.23, which the comparison with it cannot load.
    static func writeNewerKeysConfig(_ servers: E2EServers) throws -> String {
        let text = """
            modules:
              http_2xx:
                prober: http
              only_http2:
                prober: http
                http:
                  valid_http_versions: ["HTTP/2.0"]
              any_status:
                prober: http
                http:
                  accept_any_response: true
              posted_file:
                prober: http
                http:
                  method: POST
                  body_file: \(servers["CA_CERT"])
                  enable_http2: false
                  compression: gzip
                  fail_if_body_not_matches_regexp: ["method=POST"]

            """
        return try configFile(text)
    }

    /// blackbox's response keys acted on: the HTTP version checked, any status accepted, a
    /// body sent from a file.
    @Test(.timeLimit(.minutes(1)))
    func theResponseKeysOfBlackboxAreActedOn() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeNewerKeysConfig(servers))
        let origin = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let version = try #require(Self.get("\(exporter.url)/probe?module=only_http2&target=\(origin)"))
        #expect(
            version.body.contains("\nprobe_success 0\n") && version.body.contains("\nprobe_http_version 1.1\n"), "\(version.body)"
        )
        let missing = origin + "/status/404"
        #expect(try #require(Self.get("\(exporter.url)/probe?target=\(missing)")).body.contains("\nprobe_success 0\n"))
        let any = try #require(Self.get("\(exporter.url)/probe?module=any_status&target=\(missing)"))
        #expect(any.body.contains("\nprobe_success 1\n") && any.body.contains("\nprobe_http_status_code 404\n"), "\(any.body)")
        let posted = try #require(Self.get("\(exporter.url)/probe?module=posted_file&target=\(origin)/gzip"))
        #expect(posted.body.contains("\nprobe_success 1\n"), "\(posted.body)")
        #expect(exporter.stop() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func eachProbeAnswersMetricsPromtoolAcceptsWithTheFailuresHopAndReason() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeConfig(servers))
        #expect(exporter.url.hasPrefix("http://127.0.0.1:"), "first line: \(exporter.url)")

        let good = try #require(Self.get("\(exporter.url)/probe?target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))"))
        #expect(good.status == 200)
        #expect(good.body.contains("\nprobe_success 1\n") && good.body.contains("\nprobe_http_status_code 200\n"), "\(good.body)")
        #expect(try Self.promtoolProblems(good.body) == nil)

        let target = servers.url("https", "localhost", "TLS_VALID_PORT")
        let intercepted = try #require(Self.get("\(exporter.url)/probe?module=through_interceptor&target=\(target)"))
        #expect(intercepted.body.contains("\nprobe_success 0\n"))
        #expect(
            intercepted.body.contains("probe_failure_info{hop=\"target\",reason=\"hostNameMismatch\",url_error=\"-1202\"} 1"),
            "\(intercepted.body)")
        #expect(intercepted.body.contains("probe_ssl_name_verified 0") && intercepted.body.contains("probe_ssl_chain_verified 1"))
        #expect(intercepted.body.contains("probe_proxy_connect_status_code 200"))
        // The module's key names the proxy's source, not the CLI's --proxy.
        #expect(intercepted.body.contains(",source=\"proxy_url\"} 1"), "\(intercepted.body)")
        #expect(try Self.promtoolProblems(intercepted.body) == nil)
        let front = try #require(Self.get(exporter.url + "/")).body
        #expect(!front.contains("--allow-invalid-certificates") && !front.contains("--no-validate-domain-name"), "\(front)")

        let started = Date()
        let silent = try #require(
            Self.get("\(exporter.url)/probe?module=through_silent_proxy&target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))"))
        // Bounded by the module's 1 s timeout; unbounded, it waits for the silent proxy until this
        // GET's own 15 s run out. The room is for a loaded machine.
        #expect(Date().timeIntervalSince(started) < 6, "bounded by the module's 1 s timeout")
        #expect(
            silent.body.contains("probe_failure_info{hop=\"target\",reason=\"timeout\"")
                || silent.body.contains("probe_failure_info{hop=\"proxy\""), "\(silent.body)")

        let own = try #require(Self.get("\(exporter.url)/metrics"))
        #expect(own.body.contains("stagebuild_exporter_probes_total{module=\"http_2xx\",outcome=\"succeeded\"} 1"), "\(own.body)")
        #expect(try Self.promtoolProblems(own.body) == nil)
        let page = try #require(Self.get("\(exporter.url)/"))
        #expect(page.body.contains("tcp_connect</code> (the tcp prober is not run by this exporter)"))
        #expect(exporter.stop() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func badRequestsGetTheirOwnAnswers() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(
            config: try Self.writeConfig(servers), arguments: ["--allow-target", "http://127\\.0\\.0\\.1:[0-9]+/"])
        #expect(Self.get("\(exporter.url)/probe")?.status == 400)
        #expect(Self.get("\(exporter.url)/probe?target=x&module=nope")?.body == "Unknown module \"nope\"\n")
        #expect(Self.get("\(exporter.url)/probe?target=x&module=tcp_connect")?.body.contains("tcp prober") == true)
        let scrape = Self.get(
            "\(exporter.url)/probe?target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))",
            headers: ["X-Prometheus-Scrape-Timeout-Seconds": "abc"])
        #expect(scrape?.status == 500, "\(String(describing: scrape))")
        let counters = Self.get("\(exporter.url)/metrics")?.body ?? ""
        #expect(counters.contains("blackbox_module_unknown_total 1\n"), "\(counters)")
        #expect(counters.contains("stagebuild_exporter_probes_refused_total{reason=\"module_not_run\"} 1\n"), "\(counters)")
        #expect(counters.contains("stagebuild_exporter_probes_refused_total{reason=\"bad_scrape_timeout\"} 1\n"), "\(counters)")
        #expect(Self.get("\(exporter.url)/probe?target=http://169.254.169.254/")?.status == 403, "not an allowed target")
        let allowed = Self.get("\(exporter.url)/probe?target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))")
        #expect(allowed?.status == 200 && allowed?.body.contains("probe_success 1") == true)
        #expect(exporter.stop() == 0)
        // A target the probe cannot call is a failed probe, as blackbox's: its series stay.
        let open = try RunningExporter(config: try Self.writeConfig(servers))
        for target in ["ftp://127.0.0.1:21/", "http://127.0.0.1:99999/"] {
            let answer = Self.get("\(open.url)/probe?module=http_2xx&target=\(target)")
            #expect(answer?.status == 200, "\(target): \(String(describing: answer))")
            #expect(answer?.body.contains("probe_success 0\n") == true, "\(target)")
            #expect(answer?.body.contains("reason=\"requestNotPrepared\"") == true, "\(target)")
        }
        #expect(open.stop() == 0)
    }

    /// `probe-exporter-allow-target-redirect-bypass`: a redirect from an allowed target to one
    /// the list leaves out is not followed, and the other host never receives a request.
    @Test(.timeLimit(.minutes(1)))
    func allowTargetHoldsForEveryRedirect() throws {
        let servers = try E2EServers.current()
        let port = servers["HTTP_PORT"]
        let exporter = try RunningExporter(
            config: try Self.writeConfig(servers), arguments: ["--allow-target", "http://127\\.0\\.0\\.1:\(port)/.*"])
        let log = servers["STATE_DIR"] + "/nginx/access.log"
        let before = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let hidden = "http://127.0.0.2:\(port)/internal-admin"
        #expect(Self.get("\(exporter.url)/probe?target=\(hidden)")?.status == 403)
        let target = "http://127.0.0.1:\(port)/redirect/to?to=\(hidden)"
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        let answer = try #require(Self.get("\(exporter.url)/probe?target=\(encoded)"))
        #expect(answer.body.contains("\nprobe_success 0\n"), "\(answer.body)")
        #expect(answer.body.contains("reason=\"redirectRefused\""), "\(answer.body)")
        #expect(answer.body.contains("\nprobe_http_status_code 302\n"), "the 302 is the answer: \(answer.body)")
        let after = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let sent = after.dropFirst(before.count).split(separator: "\n")
        #expect(sent.contains { $0.contains("/redirect/to?to=") }, "the allowed target was asked: \(sent)")
        #expect(!sent.contains { $0.hasPrefix("127.0.0.2:") }, "the other host received a request: \(sent)")
        #expect(exporter.stop() == 0)
    }

    /// Reload as blackbox_exporter reloads, on SIGHUP and on `POST /-/reload`: a config that
    /// loads replaces the modules; one that does not is reported, the old modules stay, and
    /// `blackbox_exporter_config_last_reload_successful` says which.
    @Test(.timeLimit(.minutes(1)))
    func reloadsOnHangupAndOnPostAndKeepsTheOldConfigWhenTheNewOneFails() throws {
        let servers = try E2EServers.current()
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let path = try Self.configFile("modules:\n  first:\n    prober: http\n")
        let exporter = try RunningExporter(config: path)
        let probeSecond = "\(exporter.url)/probe?target=\(target)&module=second"
        #expect(Self.get(probeSecond)?.status == 400)

        try "modules:\n  first:\n    prober: http\n  second:\n    prober: http\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        kill(exporter.process.processIdentifier, SIGHUP)
        var status: Int?
        for _ in 0..<50 where status != 200 {
            Thread.sleep(forTimeInterval: 0.1)
            status = Self.get(probeSecond)?.status
        }
        #expect(status == 200, "SIGHUP did not load the new module\n\(exporter.process.summary)")
        #expect(exporter.process.standardError.contains("exporter: reloaded"))
        // Every thread blocks SIGHUP: none takes it with its default action, which ends a process.
        for _ in 0..<5 { kill(exporter.process.processIdentifier, SIGHUP) }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.get("\(exporter.url)/-/healthy")?.status == 200, "\(exporter.process.summary)")

        try "modules:\n  first:\n    prober: http\n    http:\n      no_such_key: 1\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let refused = Self.get("\(exporter.url)/-/reload", method: "POST")
        #expect(refused?.status == 500)
        #expect(refused?.body.contains("failed to reload config: \(path):5:7") == true, "\(String(describing: refused))")
        #expect(Self.get(probeSecond)?.status == 200, "the old modules stay after a failed reload")
        #expect(
            exporter.process.standardError.contains("exporter: reload failed, the old config stays: \(path):5:7"),
            "a POST's failure is logged as a SIGHUP's: \(exporter.process.summary)")
        // An empty file (a deploy cut short) is a failed reload too, not a config without modules.
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(Self.get("\(exporter.url)/-/reload", method: "POST")?.status == 500)
        #expect(Self.get(probeSecond)?.status == 200, "the old modules stay after an empty file")
        #expect(Self.get("\(exporter.url)/metrics")?.body.contains("blackbox_exporter_config_last_reload_successful 0\n") == true)

        try "modules:\n  first:\n    prober: http\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(Self.get("\(exporter.url)/-/reload", method: "POST")?.status == 200)
        #expect(Self.get(probeSecond)?.status == 400)
        let metrics = Self.get("\(exporter.url)/metrics")?.body ?? ""
        #expect(metrics.contains("blackbox_exporter_config_last_reload_successful 1\n"))
        #expect(try Self.promtoolProblems(metrics) == nil)
        #expect(Self.get("\(exporter.url)/-/reload")?.status == 405)
        #expect(exporter.stop() == 0)
    }

    /// `probe-exporter-reencodes-percent-escapes`: a target's escapes go on the wire as written
    /// when it also holds a character that must be encoded; only that character is.
    @Test(.timeLimit(.minutes(1)))
    func aTargetIsProbedAsWrittenWithOnlyWhatMustBeEncoded() throws {
        let servers = try E2EServers.current()
        let cases = [
            ("/echo?q=%22a%26b%22&fields=id|name", #"target=/echo\?q=%22a%26b%22&fields=id%7Cname\n"#),
            ("/e%20cho/a|b", #"target=/e%20cho/a%7Cb\n"#),
            ("/echo?id=%41&r={x}", #"target=/echo\?id=%41&r=%7Bx%7D\n"#),
        ]
        for (path, arrived) in cases {
            let config = try Self.configFile(
                "modules:\n  echo:\n    prober: http\n    http:\n      fail_if_body_not_matches_regexp: ['\(arrived)']\n")
            let exporter = try RunningExporter(config: config)
            let target =
                servers.url("http", "127.0.0.1", "HTTP_PORT", path: path).addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)
                ?? ""
            let page = Self.get("\(exporter.url)/probe?module=echo&target=\(target)")?.body ?? ""
            #expect(page.contains("probe_success 1\n"), "\(path) did not arrive as \(arrived):\n\(page)")
            #expect(exporter.stop() == 0)
        }
    }

    /// A module's credentials reach the target (nginx echoes the field) and never the page or
    /// the metrics; a `*_file` secret is read for each probe, so a rotated one is used at once.
    @Test(.timeLimit(.minutes(1)))
    func aModulesCredentialsReachTheTargetAndNoOutput() throws {
        let servers = try E2EServers.current()
        let tokenFile = try Self.configFile("first-s3cret-token\n")
        let headerFile = try Self.configFile("first-value\n")
        let config = try Self.configFile(
            """
            modules:
              basic:
                prober: http
                http:
                  basic_auth: {username: probe, password: pa55-s3cret}
                  fail_if_body_not_matches_regexp: ['authorization=Basic cHJvYmU6cGE1NS1zM2NyZXQ=\\n']
              bearer:
                prober: http
                http:
                  bearer_token_file: \(tokenFile)
                  fail_if_body_not_matches_regexp: ['authorization=Bearer second-s3cret-token\\n']
              header_file:
                prober: http
                http:
                  http_headers: {X-Probe: {files: [\(headerFile)]}}
                  fail_if_body_not_matches_regexp: ['x-probe=second-value\\n']
              gzip_asked:
                prober: http
                http: {compression: gzip}
              not_a_ca:
                prober: http
                http: {tls_config: {ca_file: \(headerFile)}}
              secret_header_elsewhere:
                prober: http
                http:
                  http_headers: {X-Probe: {secrets: [hdr-s3cret]}}
                  fail_if_body_matches_regexp: ['x-probe=hdr']
            """)
        let exporter = try RunningExporter(config: config)
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let basic = Self.get("\(exporter.url)/probe?module=basic&target=\(target)")?.body ?? ""
        #expect(basic.contains("probe_success 1\n"), "\(basic)")
        try "second-s3cret-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let bearer = Self.get("\(exporter.url)/probe?module=bearer&target=\(target)")?.body ?? ""
        #expect(bearer.contains("probe_success 1\n"), "the rotated token was not read: \(bearer)")
        try "second-value\n".write(toFile: headerFile, atomically: true, encoding: .utf8)
        let fromFile = Self.get("\(exporter.url)/probe?module=header_file&target=\(target)")?.body ?? ""
        #expect(fromFile.contains("probe_success 1\n"), "the http_headers file was not read again: \(fromFile)")
        // A module's compression must be what the body came in (nginx here sends it plain).
        let plain = Self.get("\(exporter.url)/probe?module=gzip_asked&target=\(target)")?.body ?? ""
        #expect(plain.contains("probe_success 0\n") && plain.contains("reason=\"expectationFailed\""), "\(plain)")
        // A TLS file OpenSSL would refuse is the module's fault, found before any request.
        let notACA = Self.get("\(exporter.url)/probe?module=not_a_ca&target=\(target)")?.body ?? ""
        #expect(notACA.contains("reason=\"requestNotPrepared\"") && notACA.contains("probe_success 0\n"), "\(notACA)")
        // A secret header goes to the target's origin only: not to the host a redirect names.
        let elsewhere = servers.url("http", "localhost", "HTTP_PORT", path: "/echo")
        let redirected =
            servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/to?to=\(elsewhere)")
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let secretHeader = Self.get("\(exporter.url)/probe?module=secret_header_elsewhere&target=\(redirected)")?.body ?? ""
        #expect(
            secretHeader.contains("probe_success 1\n") && secretHeader.contains("probe_http_redirects 1\n"),
            "the secret header reached the other origin: \(secretHeader)")
        // A secret file that cannot be read fails the probe, as blackbox's: its series stay.
        try FileManager.default.removeItem(atPath: tokenFile)
        let unread = Self.get("\(exporter.url)/probe?module=bearer&target=\(target)")
        #expect(
            unread?.status == 200 && unread?.body.contains("reason=\"requestNotPrepared\"") == true,
            "\(String(describing: unread))")
        // blackbox's debug view: the report, the metrics and the module, no secret in it.
        let debug = Self.get("\(exporter.url)/probe?module=basic&target=\(target)&debug=true")?.body ?? ""
        #expect(debug.hasPrefix("Logs for the probe:\nsucceeded  GET "), "\(debug)")
        #expect(debug.contains("\nMetrics that would have been returned:\n") && debug.contains("probe_success 1\n"))
        #expect(debug.contains("\nModule configuration:\nmodule basic, prober http"), "\(debug)")
        let outputs = [
            basic, bearer, debug, Self.get(exporter.url + "/")?.body ?? "", Self.get(exporter.url + "/metrics")?.body ?? "",
        ]
        for output in outputs + [exporter.process.standardError] {
            #expect(!output.contains("s3cret") && !output.contains("cHJvYmU6cGE1NS1zM2NyZXQ="))
        }
        #expect(exporter.stop() == 0)
    }

    /// An `https://` proxy_url is shaken hands with under the module's tls_config, as Go's
    /// transport does (blackbox 0.23 probes this module successfully); the debug page speaks of
    /// Go's redirect limit, not of a --max-redirs the exporter does not take.
    @Test(.timeLimit(.minutes(1)))
    func anHTTPSProxyIsReachedUnderTheModulesTLSConfigAndThePageSpeaksModuleWords() throws {
        let servers = try E2EServers.current()
        let path = try Self.configFile(
            """
            modules:
              through_tls_proxy:
                prober: http
                http:
                  proxy_url: https://127.0.0.1:\(servers["HTTPS_PROXY_PORT"])
                  tls_config: {ca_file: \(servers["CA_CERT"])}
              basic:
                prober: http
              small_body:
                prober: http
                http: {body_size_limit: 10B, fail_if_body_not_matches_regexp: [e2e]}
            """)
        let exporter = try RunningExporter(config: path)
        let target = servers.url("https", "127.0.0.1", "TLS_VALID_PORT")
        let proxied = Self.get("\(exporter.url)/probe?module=through_tls_proxy&target=\(target)")?.body ?? ""
        #expect(proxied.contains("probe_success 1\n"), "\(proxied)")
        let loop = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/loop")
        let debug = Self.get("\(exporter.url)/probe?module=basic&target=\(loop)&debug=true")?.body ?? ""
        #expect(debug.contains("tooManyRedirects"), "\(debug)")
        #expect(!debug.contains("--max-redirs") && debug.contains("Go's"), "\(debug)")
        let echo = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/echo")
        let limited = Self.get("\(exporter.url)/probe?module=small_body&target=\(echo)&debug=true")?.body ?? ""
        #expect(limited.contains("the body_size_limit of 10 bytes") && !limited.contains("--body-size-limit"), "\(limited)")
        #expect(exporter.stop() == 0)
    }

    /// `stagebuild: pac_url`: the module's PAC script, fetched for each probe, chooses the proxy
    /// with the probe's failover; a script that throws or cannot be fetched fails the probe with
    /// `pacFailed` at this machine's hop.
    @Test(.timeLimit(.minutes(1)))
    func aModulesPACScriptChoosesTheProxyWithFailover() throws {
        let servers = try E2EServers.current()
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let name = "exporter-\(UUID().uuidString)"
        try "function FindProxyForURL(url, host) { return 'PROXY 127.0.0.1:\(servers["CLOSED_PORT"]); PROXY \(tinyproxy)'; }"
            .write(toFile: "\(servers["PAC_DIR"])/\(name).pac", atomically: true, encoding: .utf8)
        try "function FindProxyForURL(url, host) { throw new Error('no proxy for ' + host); }"
            .write(toFile: "\(servers["PAC_DIR"])/\(name)-throws.pac", atomically: true, encoding: .utf8)
        // A silent first proxy, and user info no device reads: the page never shows the password.
        try
            ("function FindProxyForURL(url, host) { return 'PROXY 127.0.0.1:\(servers["SILENT_PORT"]); "
            + "PROXY probe:\(servers.squidPassword)@127.0.0.1:1; PROXY \(tinyproxy)'; }")
            .write(toFile: "\(servers["PAC_DIR"])/\(name)-silent.pac", atomically: true, encoding: .utf8)
        let pacBase = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/\(name)")
        let path = try Self.configFile(
            """
            modules:
              via_pac:
                prober: http
                http: {stagebuild: {pac_url: "\(pacBase).pac"}}
              throwing_pac:
                prober: http
                http: {stagebuild: {pac_url: "\(pacBase)-throws.pac"}}
              missing_pac:
                prober: http
                http: {stagebuild: {pac_url: "\(pacBase)-none.pac"}}
              silent_first:
                prober: http
                timeout: 8s
                http: {stagebuild: {pac_url: "\(pacBase)-silent.pac"}, tls_config: {ca_file: \(servers["CA_CERT"])}}
            """)
        let exporter = try RunningExporter(config: path)
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let carried = Self.get("\(exporter.url)/probe?module=via_pac&target=\(target)")?.body ?? ""
        #expect(carried.contains("\nprobe_success 1\n"), "\(carried)")
        #expect(carried.contains("probe_proxy_used{proxy=\"http://\(tinyproxy)\",source=\"pac_url\"} 1"), "\(carried)")
        #expect(carried.contains("\nprobe_pac_entries_failed_over 1\n"), "\(carried)")
        #expect(try Self.promtoolProblems(carried) == nil)
        for module in ["throwing_pac", "missing_pac"] {
            let failed = Self.get("\(exporter.url)/probe?module=\(module)&target=\(target)&debug=true")?.body ?? ""
            #expect(failed.contains("probe_success 0"), "\(failed)")
            #expect(failed.contains("reason=\"pacFailed\""), "\(failed)")
        }
        let thrown = Self.get("\(exporter.url)/probe?module=throwing_pac&target=\(target)&debug=true")?.body ?? ""
        #expect(thrown.contains("no proxy for 127.0.0.1"), "\(thrown)")
        // Through CONNECT (an https:// target): a proxy that never answers it is left, as a device leaves it.
        let tlsTarget = servers.url("https", "localhost", "TLS_VALID_PORT")
        let silent = Self.get("\(exporter.url)/probe?module=silent_first&target=\(tlsTarget)&debug=true")?.body ?? ""
        #expect(silent.contains("probe_success 1") && silent.contains("probe_pac_entries_failed_over 1"), "\(silent)")
        #expect(!silent.contains(servers.squidPassword) && silent.contains("PROXY ***@127.0.0.1:1"), "\(silent)")
        let front = Self.get(exporter.url + "/")?.body ?? ""
        #expect(!front.contains(servers.squidPassword))
        #expect(exporter.stop() == 0)
    }

    /// `oauth2`: the token the token service gives for the client's id and secret is what the
    /// target gets; a refused client fails the probe at this machine's hop with the token
    /// service's words; neither the secret nor the token is in any output.
    @Test(.timeLimit(.minutes(1)))
    func anOAuth2TokenIsAskedForAndSentAndNeverShown() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeConfig(servers))
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/oauth2/protected")
        let granted = Self.get("\(exporter.url)/probe?module=oauth2&target=\(target)")?.body ?? ""
        #expect(granted.contains("probe_success 1\n") && granted.contains("probe_http_status_code 200\n"), "\(granted)")
        let refused = Self.get("\(exporter.url)/probe?module=oauth2_refused&target=\(target)")?.body ?? ""
        #expect(refused.contains("probe_success 0\n") && refused.contains("probe_http_status_code 0\n"), "\(refused)")
        #expect(
            refused.contains("probe_failure_info{hop=\"client\",reason=\"requestNotPrepared\",url_error=\"\"} 1\n"), "\(refused)")
        let page = Self.get(exporter.url + "/")?.body ?? ""
        #expect(page.contains("answered HTTP 401: invalid_client"), "\(page)")
        for output in [granted, refused, page, Self.get(exporter.url + "/metrics")?.body ?? "", exporter.process.standardError] {
            #expect(!output.contains(servers["OAUTH2_CLIENT_SECRET"]) && !output.contains(servers["OAUTH2_TOKEN"]))
            #expect(!output.contains("not-the-secret"))
        }
        #expect(exporter.stop() == 0)
    }

    /// A refused certificate's second look fits in the scrape's time: the answer comes before
    /// Prometheus gives up, with the reason series (`probe-extra-looks-exceed-time-limits`).
    @Test(.timeLimit(.minutes(1)))
    func aBadCertificateIsAnsweredWithinTheScrapeTimeout() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeConfig(servers))
        let target = servers.url("https", "localhost", "SLOW_TLS_PORT")
        let started = Date()
        let answer = try #require(
            Self.get("\(exporter.url)/probe?target=\(target)", headers: ["X-Prometheus-Scrape-Timeout-Seconds": "4"]))
        let seconds = Date().timeIntervalSince(started)
        // 3.5 s to probe (the 0.5 s offset off 4): 2.5 s to see the certificate, the rest for its
        // second look, where a look with a budget of its own took 2.5 s more. The exporter's own
        // measure tells the fault; the wall clock, taken beside the other suites on a loaded
        // machine (4.9 s once), only guards against a hang.
        let duration = answer.body.split(separator: "\n").first { $0.hasPrefix("probe_duration_seconds ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
        #expect(try #require(duration, "\(answer.body)") < 3.9, "probed past the scrape timeout's budget")
        #expect(seconds < 10, "answered after \(seconds) s")
        #expect(answer.body.contains("reason=\"certificateNotTrusted\""), "\(answer.body)")
        #expect(exporter.stop() == 0)
    }

    /// `probe-exporter-https-to-http-redirect-counts-as-ssl`: the last response decides
    /// `probe_http_ssl` and `fail_if_not_ssl`, as blackbox's `resp.TLS`.
    @Test(.timeLimit(.minutes(1)))
    func anHTTPSTargetRedirectedToPlainHTTPIsNotSSL() throws {
        let servers = try E2EServers.current()
        let path = try Self.configFile(
            """
            modules:
              must_be_tls:
                prober: http
                http:
                  fail_if_not_ssl: true
                  tls_config:
                    ca_file: \(servers["CA_CERT"])

            """)
        let exporter = try RunningExporter(config: path)
        let echo = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/echo")
        let target = servers.url("https", "localhost", "TLS_VALID_PORT", path: "/redirect/to?to=\(echo)")
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        let answer = try #require(Self.get("\(exporter.url)/probe?module=must_be_tls&target=\(encoded)"))
        #expect(answer.body.contains("\nprobe_success 0\n"), "\(answer.body)")
        #expect(answer.body.contains("\nprobe_http_ssl 0\n"), "\(answer.body)")
        #expect(answer.body.contains("\nprobe_http_redirects 1\n"), "\(answer.body)")
        #expect(!answer.body.contains("probe_tls_version_info"), "\(answer.body)")
        // Redirected the other way, http:// to https://, the ca_file applies to the https hop.
        let upgraded = servers.url(
            "http", "127.0.0.1", "HTTP_PORT", path: "/redirect/to?to=\(servers.url("https", "localhost", "TLS_VALID_PORT"))")
        let encodedUp = upgraded.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? upgraded
        let up = try #require(Self.get("\(exporter.url)/probe?module=must_be_tls&target=\(encodedUp)"))
        #expect(up.body.contains("\nprobe_success 1\n") && up.body.contains("\nprobe_http_ssl 1\n"), "\(up.body)")
        #expect(up.body.contains("\nprobe_http_status_code 200\n"), "\(up.body)")
        #expect(exporter.stop() == 0)
    }

    /// blackbox_exporter's own example config, as Debian ships it with blackbox 0.23, loads.
    @Test func blackboxsOwnExampleConfigLoads() async throws {
        let example = "/etc/prometheus/blackbox.yml"
        try #require(FileManager.default.fileExists(atPath: example), "Tests/e2e/servers/start installs it")
        let run = try await StagebuildProcess.run(["exporter", "--check-config", example])
        #expect(run.status == 0, "\(run.summary)")
        // Its long example file too: every http module runs, the others are listed as not run.
        let upstream = "/usr/share/doc/prometheus-blackbox-exporter/examples/example.yml"
        if FileManager.default.fileExists(atPath: upstream) {
            let full = try await StagebuildProcess.run(["exporter", "--check-config", upstream])
            #expect(full.status == 0, "\(full.summary)")
            #expect(full.stdout.contains("  icmp_example: the icmp prober is not run by this exporter\n"), "\(full.stdout)")
            #expect(!full.stdout.contains("http_2xx_example"), "\(full.stdout)")
        }
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yml").path
        try "modules:\n  m:\n    prober: http\n    http:\n      methd: GET\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await StagebuildProcess.run(["exporter", "--check-config", bad])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\(bad):5:7: unknown key 'methd'"), "\(refused.summary)")
    }

    /// A bad `--allow-target` is a usage error quoting the pattern as written, and a missing
    /// config file is named once.
    @Test func badArgumentsAreNamedAsWritten() async throws {
        let servers = try E2EServers.current()
        let pattern = try await StagebuildProcess.run(
            ["exporter", "--config", try Self.writeConfig(servers), "--allow-target", "("])
        #expect(pattern.status == 64 && pattern.stderr.contains("--allow-target: missing ): (\n"), "\(pattern.summary)")
        let missing = try await StagebuildProcess.run(["exporter", "--config", "/nonexistent/blackbox.yml"])
        #expect(missing.status == 74, "\(missing.summary)")
        #expect(missing.stderr.components(separatedBy: "/nonexistent/blackbox.yml").count == 2, "\(missing.summary)")
    }

    @Test func aPortAlreadyTakenExits69() async throws {
        let servers = try E2EServers.current()
        let config = try Self.writeConfig(servers)
        let first = try RunningExporter(config: config)
        let port = URL(string: first.url)?.port ?? 0
        let second = try await StagebuildProcess.run(["exporter", "--config", config, "--listen", "127.0.0.1:\(port)"])
        #expect(second.status == 69, "\(second.summary)")
        #expect(first.stop() == 0)
    }

    /// Debian's Prometheus on a loopback port with `scrapeConfigs` (the text under
    /// `scrape_configs:`), its data in a scratch folder, stopped by ``stop()``.
    final class RunningPrometheus {
        let process: BackgroundProcess
        let port: Int
        let folder: Scratch

        init(scrapeConfigs: String) throws {
            try #require(
                FileManager.default.isExecutableFile(atPath: "/usr/bin/prometheus"), "Tests/e2e/servers/start installs it")
            folder = try Scratch(prefix: "prometheus")
            try ("scrape_configs:\n" + scrapeConfigs).write(
                to: folder.url.appendingPathComponent("prometheus.yml"), atomically: true, encoding: .utf8)
            port = try LoopbackPort.unused()
            process = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/prometheus"),
                [
                    "--config.file=\(folder.path)/prometheus.yml", "--storage.tsdb.path=\(folder.path)/data",
                    "--web.listen-address=127.0.0.1:\(port)",
                ])
        }

        /// One scrape job of blackbox's multi-target pattern: each target in `targets` (URL,
        /// module) probed through the exporter at `exporter` (`host:port`), the target as
        /// `instance` and the module as `module`.
        static func job(_ name: String, exporter: String, targets: [(url: String, module: String)], every seconds: Int) -> String
        {
            /// YAML's double-quoted form of printable ASCII text.
            func quoted(_ text: String) -> String {
                "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            let statics = targets.map { target in
                "      - {targets: [\(quoted(target.url))], labels: {module: \(quoted(target.module)), __param_module: \(quoted(target.module))}}\n"
            }
            return """
                  - job_name: \(name)
                    scrape_interval: \(seconds)s
                    scrape_timeout: \(seconds)s
                    metrics_path: /probe
                    static_configs:

                """ + statics.joined()
                    + """
                        relabel_configs:
                          - {source_labels: [__address__], target_label: __param_target}
                          - {source_labels: [__param_target], target_label: instance}
                          - {target_label: __address__, replacement: "\(exporter)"}

                    """
        }

        /// The samples an instant query answers (none while Prometheus starts).
        func query(_ expression: String) -> [Sample] {
            let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
            guard let answer = ExporterE2ETests.get("http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)", timeout: 2),
                let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
                let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]]
            else { return [] }
            return result.map { sample in
                Sample(
                    labels: sample["metric"] as? [String: String] ?? [:],
                    value: ((sample["value"] as? [Any])?.last as? String).flatMap(Double.init))
            }
        }

        /// Queries `expression` every 300 ms until `done` holds for its answer, for at most
        /// `seconds`; the last answer.
        func waitFor(_ expression: String, within seconds: Double = 30, until done: ([Sample]) -> Bool) -> [Sample] {
            var samples: [Sample] = []
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                samples = query(expression)
                if done(samples) { break }
                usleep(300_000)
            }
            return samples
        }

        func stop() { _ = process.stop() }
    }

    /// One sample of a Prometheus query's answer.
    struct Sample: CustomStringConvertible {
        let labels: [String: String]
        let value: Double?
        var description: String {
            let shown = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            return "{\(shown)} \(value.map { "\($0)" } ?? "-")"
        }
    }

    /// Prometheus itself (Debian's) scrapes the exporter with blackbox's multi-target
    /// relabelling: `probe_success` and `probe_failure_info` are in its query API as the
    /// exporter answered them, and a certificate-expiry dashboard's queries answer.
    @Test(.timeLimit(.minutes(1)))
    func prometheusScrapesTheExporterAndStoresTheFailureReasons() async throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeConfig(servers))
        let exporterAddress = try #require(exporter.url.split(separator: "/").last.map(String.init))
        let good = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let valid = servers.url("https", "localhost", "TLS_VALID_PORT")
        let prometheus = try RunningPrometheus(
            scrapeConfigs: [
                ("good", "http_2xx", good), ("intercepted", "through_interceptor", valid),
                ("silent", "through_silent_proxy", good), ("tls", "tls_trusted", valid),
            ]
            .map { RunningPrometheus.job($0.0, exporter: exporterAddress, targets: [($0.2, $0.1)], every: 1) }.joined())
        defer { prometheus.stop() }
        let success = Dictionary(
            prometheus.waitFor("probe_success") { $0.count == 4 }.map { ($0.labels["job"] ?? "", $0.value) },
            uniquingKeysWith: { first, _ in first })
        #expect(success == ["good": 1, "intercepted": 0, "silent": 0, "tls": 1], "probe_success by job: \(success)")
        // A certificate-expiry dashboard's queries, unchanged: days left, the leaf, the address family.
        let daysLeft = prometheus.query("(probe_ssl_last_chain_expiry_timestamp_seconds{job=\"tls\"} - time()) / 86400")
        #expect(daysLeft.count == 1 && (daysLeft.first?.value ?? 0) > 1, "\(daysLeft)")
        let earliest = prometheus.query("probe_ssl_earliest_cert_expiry{job=\"tls\"} - time() > 0")
        #expect(earliest.count == 1, "\(earliest)")
        let leaf = prometheus.query("probe_ssl_last_chain_info{job=\"tls\"}")
        #expect(leaf.first?.labels["subject"] == "CN=localhost", "\(leaf)")
        #expect(leaf.first?.labels["fingerprint_sha256"]?.count == 64, "\(leaf)")
        #expect(prometheus.query("probe_ip_protocol{job=\"good\"} == 4").count == 1)
        let failures = prometheus.query("probe_failure_info")
        let intercepted = failures.first { $0.labels["job"] == "intercepted" }
        #expect(intercepted?.labels["reason"] == "hostNameMismatch", "\(failures)")
        #expect(intercepted?.labels["url_error"] == "-1202")
        let silent = failures.first { $0.labels["job"] == "silent" }
        #expect(silent?.labels["reason"]?.lowercased().contains("timeout") == true, "\(failures)")
        #expect(exporter.stop() == 0)
    }

    /// blackbox_exporter 0.23 (Debian's) started on `config`; its `host:port` once healthy.
    static func startBlackbox(config: String) throws -> (BackgroundProcess, String) {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/prometheus-blackbox-exporter"),
            "Tests/e2e/servers/start installs it")
        let port = try LoopbackPort.unused()
        let blackbox = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/prometheus-blackbox-exporter"),
            ["--config.file=\(config)", "--web.listen-address=127.0.0.1:\(port)"])
        let ready = Date().addingTimeInterval(10)
        while Date() < ready && Self.get("http://127.0.0.1:\(port)/-/healthy", timeout: 1)?.status != 200 { usleep(100_000) }
        return (blackbox, "127.0.0.1:\(port)")
    }

    /// blackbox_exporter 0.23 and the exporter with one config, scraped by one Prometheus over
    /// the same targets: every series blackbox produces is stored for the exporter too, with
    /// the same labels and the same value (a duration: present and not negative). The
    /// documented differences are tests of their own (the `User-Agent`, the address through a
    /// proxy).
    @Test(.timeLimit(.minutes(1)))
    func prometheusStoresEverySeriesBlackboxProducesWithTheSameValueFromTheExporter() async throws {
        let servers = try E2EServers.current()
        let config = try Self.writeConfig(servers)
        let exporter = try RunningExporter(config: config)
        let (blackbox, blackboxAddress) = try Self.startBlackbox(config: config)
        defer { _ = blackbox.stop() }
        let http = { (path: String) in servers.url("http", "127.0.0.1", "HTTP_PORT", path: path) }
        let targets: [(url: String, module: String)] = [
            (http(""), "http_2xx"), (http("/status/404"), "http_2xx"), (http("/redirect/once"), "http_2xx"),
            (http("/echo"), "http_2xx"), (http("/redirect/loop"), "http_2xx"), (http("/echo"), "small_body"),
            // Dot segments are sent as written, as Go sends them (the echo shows the target).
            (http("/x/../echo"), "http_2xx"),
            (servers.url("https", "localhost", "TLS_VALID_PORT"), "tls_trusted"),
            (servers.url("https", "localhost", "TLS_EXPIRED_PORT"), "tls_trusted"),
            (servers.url("https", "localhost", "TLS_OTHER_NAME_PORT"), "tls_other_name"),
            (servers.url("https", "localhost", "TLS_VALID_PORT"), "through_interceptor"),
            (http(""), "through_silent_proxy"),
            // A redirect not followed counts; a probe with no response has version and length 0.
            (http("/redirect/once"), "no_follow"),
            (servers.url("http", "127.0.0.1", "CLOSED_PORT"), "http_2xx"),
            // Mutual TLS: the module's client certificate is sent and the server names it; without
            // one the server answers 400.
            (servers.url("https", "localhost", "TLS_CLIENT_CERT_PORT"), "client_certificate"),
            (servers.url("https", "localhost", "TLS_CLIENT_CERT_PORT"), "tls_trusted"),
            // OAuth 2.0: the token asked for is sent; a token refused fails before any request.
            (http("/oauth2/protected"), "oauth2"), (http("/oauth2/protected"), "oauth2_refused"),
            (http("/oauth2/protected"), "oauth2_form"),
            // https:// redirected to http://: the last response decides probe_http_ssl.
            (servers.url("https", "localhost", "TLS_VALID_PORT", path: "/redirect/to?to=\(http("/echo"))"), "tls_trusted"),
        ]
        let exporterAddress = try #require(exporter.url.split(separator: "/").last.map(String.init))
        let prometheus = try RunningPrometheus(
            scrapeConfigs: RunningPrometheus.job("blackbox", exporter: blackboxAddress, targets: targets, every: 2)
                + RunningPrometheus.job("stagebuild", exporter: exporterAddress, targets: targets, every: 2))
        defer { prometheus.stop() }
        let scraped = prometheus.waitFor("count by (job) (probe_success)") { answer in
            answer.count == 2 && answer.allSatisfy { $0.value == Double(targets.count) }
        }
        #expect(scraped.count == 2 && scraped.allSatisfy { $0.value == Double(targets.count) }, "\(scraped)")
        /// A series by its name and labels but the job.
        func key(_ sample: Sample) -> String {
            sample.labels.filter { $0.key != "job" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",")
        }
        let mutualTLS = prometheus.query("probe_http_status_code").filter {
            $0.labels["instance"]?.hasSuffix(":\(servers["TLS_CLIENT_CERT_PORT"])/") == true
        }
        #expect(
            Set(mutualTLS.map { "\($0.labels["job"] ?? "") \($0.labels["module"] ?? "") \($0.value ?? 0)" }) == [
                "blackbox client_certificate 200.0", "stagebuild client_certificate 200.0", "blackbox tls_trusted 400.0",
                "stagebuild tls_trusted 400.0",
            ], "\(mutualTLS)")
        let theirs = prometheus.query("{job=\"blackbox\",__name__=~\"probe_.+\"}")
        let ours = Dictionary(
            prometheus.query("{job=\"stagebuild\",__name__=~\"probe_.+\"}").map { (key($0), $0) },
            uniquingKeysWith: { first, _ in first })
        let durations: Set = ["probe_duration_seconds", "probe_dns_lookup_time_seconds", "probe_http_duration_seconds"]
        #expect(theirs.count > targets.count * 10, "\(theirs.count) series from blackbox")
        for sample in theirs {
            guard let mine = ours[key(sample)] else {
                Issue.record("absent here: \(sample)")
                continue
            }
            if durations.contains(sample.labels["__name__"] ?? "") {
                #expect((mine.value ?? -1) >= 0, "\(mine)")
            } else {
                #expect(mine.value == sample.value, "\(mine) here, \(sample) in blackbox")
            }
        }
        // And no series of blackbox's names that blackbox leaves out, but the certificate's
        // facts after a failed handshake (the earliest expiry, the TLS version: why it failed).
        let theirKeys = Set(theirs.map(key))
        let names = Set(theirs.compactMap { $0.labels["__name__"] })
        let afterAFailedHandshake: Set = ["probe_ssl_earliest_cert_expiry", "probe_tls_version_info"]
        for (key, sample) in ours where names.contains(sample.labels["__name__"] ?? "") && !theirKeys.contains(key) {
            let failedHandshake = ours.values.contains {
                $0.labels["__name__"] == "probe_http_status_code" && $0.labels["instance"] == sample.labels["instance"]
                    && $0.labels["module"] == sample.labels["module"] && $0.value == 0
            }
            #expect(failedHandshake && afterAFailedHandshake.contains(sample.labels["__name__"] ?? ""), "only here: \(sample)")
        }
        #expect(exporter.stop() == 0)
    }

    /// A documented difference: each exporter names itself in `User-Agent` unless a module's
    /// `headers` set one (blackbox `Blackbox Exporter/VERSION`, here `stagebuild/VERSION`, as
    /// the probe's), so a target that echoes the request answers other bodies.
    @Test(.timeLimit(.minutes(1)))
    func eachExporterNamesItselfInUserAgent() async throws {
        let servers = try E2EServers.current()
        let config = try Self.configFile(
            """
            modules:
              names_stagebuild:
                prober: http
                http: {fail_if_body_not_matches_regexp: ["user-agent=stagebuild/[0-9]"]}
              names_blackbox:
                prober: http
                http: {fail_if_body_not_matches_regexp: ["user-agent=Blackbox Exporter/[0-9]"]}

            """)
        let exporter = try RunningExporter(config: config)
        let (blackbox, blackboxAddress) = try Self.startBlackbox(config: config)
        defer { _ = blackbox.stop() }
        let target =
            servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/echo").addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)
            ?? ""
        func success(_ exporterURL: String, _ module: String) -> Bool? {
            Self.get("\(exporterURL)/probe?module=\(module)&target=\(target)")?.body.split(separator: "\n")
                .first { $0.hasPrefix("probe_success ") }.map { $0.hasSuffix(" 1") }
        }
        #expect(success(exporter.url, "names_stagebuild") == true)
        #expect(success(exporter.url, "names_blackbox") == false)
        #expect(success("http://\(blackboxAddress)", "names_stagebuild") == false)
        #expect(success("http://\(blackboxAddress)", "names_blackbox") == true)
        #expect(exporter.stop() == 0)
    }

    /// A documented difference: through a proxy, `probe_ip_addr_hash` and `probe_ip_protocol`
    /// are of the address connected to, the proxy's (libcurl leaves the target's name to the
    /// proxy), where blackbox resolves the target's name itself and hashes that address.
    @Test(.timeLimit(.minutes(1)))
    func throughAProxyTheAddressIsTheProxys() async throws {
        let servers = try E2EServers.current()
        let config = try Self.configFile(
            "modules:\n  proxied:\n    prober: http\n    http: {proxy_url: \"\(servers.proxy("TINYPROXY_PORT"))\"}\n")
        let exporter = try RunningExporter(config: config)
        let (blackbox, blackboxAddress) = try Self.startBlackbox(config: config)
        defer { _ = blackbox.stop() }
        // A loopback address nothing listens on: the proxy answers for it.
        let target =
            "http://127.0.0.2:\(servers["CLOSED_PORT"])/".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        func hash(_ exporterURL: String) -> String? {
            Self.get("\(exporterURL)/probe?module=proxied&target=\(target)")?.body.split(separator: "\n")
                .first { $0.hasPrefix("probe_ip_addr_hash ") }.flatMap { $0.split(separator: " ").last }
                .flatMap { Double($0) }.map { String(UInt32($0)) }
        }
        /// Go's hash/fnv New32a over the address's bytes, as blackbox hashes it.
        func fnv1a(_ bytes: [UInt8]) -> String {
            String(bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 })
        }
        #expect(hash(exporter.url) == fnv1a([127, 0, 0, 1]))
        #expect(hash("http://\(blackboxAddress)") == fnv1a([127, 0, 0, 2]))
        #expect(exporter.stop() == 0)
    }

    /// A module's `body` reaches the target with its method: `stagebuild serve` echoes the
    /// body's SHA-256, which `fail_if_body_not_matches_regexp` looks for.
    @Test(.timeLimit(.minutes(1)))
    func aModulesBodyReachesTheTarget() throws {
        let upstream = try BackgroundProcess(try StagebuildProcess.executable(), ["serve", "--port", "0"])
        defer { upstream.stop() }
        let upstreamURL = try upstream.line(within: .seconds(10))
        // SHA-256 of "hello".
        let digest = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        let config = try Self.configFile(
            """
            modules:
              post_hello:
                prober: http
                http:
                  method: POST
                  body: hello
                  fail_if_body_not_matches_regexp: ["\(digest)", "\\"method\\": *\\"POST\\""]
                  # As Go's client: no Content-Type and no Accept the module does not name.
                  fail_if_body_matches_regexp: ['"Content-Type"', '"Accept"']
            """)
        let exporter = try RunningExporter(config: config)
        let answer = try #require(Self.get("\(exporter.url)/probe?module=post_hello&target=\(upstreamURL)/anything"))
        #expect(answer.body.contains("\nprobe_success 1\n"), "\(answer.body)")
        #expect(exporter.stop() == 0)
    }

    /// `tls_config.server_name` as Go's ServerName: TLS asks for and checks that name while the
    /// connection goes to the target, so a certificate for other.test passes on localhost's port.
    @Test(.timeLimit(.minutes(1)))
    func serverNameIsTheNameTLSChecks() throws {
        let servers = try E2EServers.current()
        let exporter = try RunningExporter(config: try Self.writeConfig(servers))
        let target = servers.url("https", "localhost", "TLS_OTHER_NAME_PORT")
        let renamed = try #require(Self.get("\(exporter.url)/probe?module=tls_other_name&target=\(target)"))
        #expect(
            renamed.body.contains("\nprobe_success 1\n") && renamed.body.contains("probe_ssl_name_verified 1"), "\(renamed.body)")
        let plain = try #require(Self.get("\(exporter.url)/probe?module=tls_trusted&target=\(target)"))
        #expect(plain.body.contains("reason=\"hostNameMismatch\""), "\(plain.body)")
        let page = try #require(Self.get("\(exporter.url)/"))
        #expect(page.body.contains(target), "the page names the target as asked")
        #expect(exporter.stop() == 0)
    }
}
