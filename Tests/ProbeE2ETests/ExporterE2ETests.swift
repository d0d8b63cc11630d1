import Foundation
import FoundationNetworking
import Testing

/// `stagebuild exporter` as Prometheus scrapes it, against the real servers: metrics that
/// `promtool check metrics` accepts, the failure's hop and reason as labels, blackbox's own
/// example config loading, and the answers a server owes to bad requests.
@Suite(.enabled(if: E2EServers.isConfigured), .serialized)
struct ExporterE2ETests {
    /// A running exporter with its first stdout line (its URL) read.
    final class RunningExporter {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        var url = ""

        init(config: String, arguments: [String] = []) throws {
            process.executableURL = try StagebuildProcess.executable()
            process.arguments = ["exporter", "--config", config, "--listen", "127.0.0.1:0"] + arguments
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            var line = Data()
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let byte = stdout.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            url = String(decoding: line, as: UTF8.self)
        }

        /// SIGTERM, and the exit status within 10 s.
        func stop() -> Int32? {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                process.terminate()
                return nil
            }
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    final class Box: @unchecked Sendable {
        var value: (status: Int, body: String)?
    }

    /// One GET, bounded by `timeout` seconds.
    static func get(_ url: String, headers: [String: String] = [:], timeout: Double = 15) -> (status: Int, body: String)? {
        guard let target = URL(string: url) else { return nil }
        var request = URLRequest(url: target)
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus == 0 && said.isEmpty ? nil : said
    }

    static func writeConfig(_ servers: E2EServers) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(UUID().uuidString).yml").path
        let text = """
            modules:
              http_2xx:
                prober: http
                timeout: 5s
              through_interceptor:
                prober: http
                http:
                  proxy_url: \(servers.proxy("MITM_FIXED_PORT"))
                  tls_config:
                    ca_file: \(servers["CA_CERT"])
              through_silent_proxy:
                prober: http
                timeout: 1s
                http:
                  proxy_url: http://127.0.0.1:\(servers["SILENT_PORT"])
              tcp_connect:
                prober: tcp

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
        #expect(try Self.promtoolProblems(intercepted.body) == nil)

        let started = Date()
        let silent = try #require(
            Self.get("\(exporter.url)/probe?module=through_silent_proxy&target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))"))
        #expect(Date().timeIntervalSince(started) < 3, "bounded by the module's 1 s timeout")
        #expect(
            silent.body.contains("probe_failure_info{hop=\"target\",reason=\"timeout\"")
                || silent.body.contains("probe_failure_info{hop=\"proxy\""), "\(silent.body)")

        let own = try #require(Self.get("\(exporter.url)/metrics"))
        #expect(own.body.contains("stagebuild_exporter_probes_total{module=\"http_2xx\",outcome=\"succeeded\"} 1"), "\(own.body)")
        #expect(try Self.promtoolProblems(own.body) == nil)
        let page = try #require(Self.get("\(exporter.url)/"))
        #expect(page.body.contains("tcp_connect</code> (the tcp prober: not run by this exporter)"))
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
        #expect(Self.get("\(exporter.url)/probe?target=http://169.254.169.254/")?.status == 403, "not an allowed target")
        let allowed = Self.get("\(exporter.url)/probe?target=\(servers.url("http", "127.0.0.1", "HTTP_PORT"))")
        #expect(allowed?.status == 200 && allowed?.body.contains("probe_success 1") == true)
        #expect(exporter.stop() == 0)
    }

    /// blackbox_exporter's own example config, as Debian ships it with blackbox 0.23, loads.
    @Test func blackboxsOwnExampleConfigLoads() async throws {
        let example = "/etc/prometheus/blackbox.yml"
        try #require(FileManager.default.fileExists(atPath: example), "Tests/e2e/servers/start installs it")
        let run = try await StagebuildProcess.run(["exporter", "--check-config", example])
        #expect(run.status == 0, "\(run.summary)")
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yml").path
        try "modules:\n  m:\n    prober: http\n    http:\n      methd: GET\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await StagebuildProcess.run(["exporter", "--check-config", bad])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\(bad):5:7: unknown key 'methd'"), "\(refused.summary)")
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
}
