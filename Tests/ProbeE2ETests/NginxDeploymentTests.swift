import DockerfileSyntax
import Foundation
import TestSupport
import Testing

/// The deployment check of issue 4: real nginx runs the site config that the shipped
/// `nginx-reverse-proxy` template renders, in front of `stagebuild serve`, and the probe shows
/// which forwarding headers reached the upstream.
@Suite(
    .serialized,
    .enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test installs nginx and starts the servers)"))
struct NginxDeploymentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The template's site config with its parameters filled in, as its `RUN` step writes it:
    /// the step's script run by `/bin/sh` with the parameters in its environment (`set -u`
    /// fails on one the test does not give), the files it writes moved into a scratch folder.
    static func renderedSiteConfig(parameters: [String: String]) throws -> String {
        let path = repository.appendingPathComponent("Stages/nginx-reverse-proxy.Dockerfile").path
        let tree = try DockerfileParser.parse(try String(contentsOfFile: path, encoding: .utf8))
        let site = "/etc/nginx/conf.d/reverse-proxy.conf"
        let run = try #require(
            tree.instructions.first { $0.kind == "RUN" && !$0.isJSONForm && $0.arguments.first?.contains(site) == true },
            "the template writes its site config with a shell-form RUN step that writes \(site)")
        let root = try Scratch(prefix: "nginx-site")
        for folder in ["etc/nginx/conf.d", "usr/local/bin"] {
            try FileManager.default.createDirectory(
                at: root.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let script = try #require(run.arguments.first)
            .replacingOccurrences(of: "/etc/nginx/conf.d/", with: root.path + "/etc/nginx/conf.d/")
            .replacingOccurrences(of: "/usr/local/bin/", with: root.path + "/usr/local/bin/")
        let shell = try ProcessRun.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script],
            environment: parameters.merging(["PATH": "/usr/bin:/bin"]) { given, _ in given }, limit: .seconds(30))
        try #require(shell.status == 0, "the template's RUN step failed under /bin/sh: \(script)")
        return try String(contentsOf: root.url.appendingPathComponent(String(site.dropFirst())), encoding: .utf8)
    }

    /// Waits until a TCP port accepts connections, at most `seconds`.
    static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let connection = try? LoopbackPort.connect(port) {
                close(connection)
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func nginxFromTheTemplateForwardsTheConfiguredHeadersToServe() async throws {
        // The upstream: stagebuild serve on a free port, its address on the first stdout line.
        let serve = try BackgroundProcess(try StagebuildProcess.executable(), ["serve", "--port", "0"])
        defer { serve.stop() }
        let firstLine = try serve.line(within: .seconds(10))
        let upstreamPort = try #require(
            firstLine.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })

        // nginx with the template's site config, in a prefix of its own.
        let prefix = try Scratch(prefix: "nginx-deploy")
        defer { withExtendedLifetime(prefix) {} }  // nginx uses the folder until the test ends
        try FileManager.default.createDirectory(at: prefix.url.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let listenPort = try LoopbackPort.unused()
        let site = try Self.renderedSiteConfig(parameters: [
            "LISTEN_PORT": "127.0.0.1:\(listenPort)", "SERVER_NAME": "example.test",
            "UPSTREAM_HOST": "127.0.0.1", "UPSTREAM_PORT": String(upstreamPort),
        ])
        try site.write(to: prefix.url.appendingPathComponent("site.conf"), atomically: true, encoding: .utf8)
        let main = """
            daemon off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/logs/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                include \(prefix.path)/site.conf;
            }

            """
        try main.write(to: prefix.url.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let proxy = try BackgroundProcess(
            URL(fileURLWithPath: try #require(nginx, "nginx is installed by Tests/e2e/servers/start")),
            ["-p", prefix.path, "-c", prefix.url.appendingPathComponent("nginx.conf").path])
        defer { proxy.stop() }
        try #require(Self.waitForPort(listenPort), "nginx did not listen on 127.0.0.1:\(listenPort)")

        // Through nginx to serve's echo: the probe checks each header that should arrive.
        let url = "http://127.0.0.1:\(listenPort)/anything/deploy"
        let expectations: [(String, String)] = [
            ("Host", "example.test"), ("X-Real-IP", "127.0.0.1"), ("X-Forwarded-For", "127.0.0.1"), ("X-NginX-Proxy", "true"),
        ]
        for (name, value) in expectations {
            let pattern = "\"name\": \"\(name)\", \"value\": \"\(NSRegularExpression.escapedPattern(for: value))\""
            let run = try await StagebuildProcess.run([
                "probe", "--proxy", "", "-H", "Host: example.test", "--expect-body", pattern, "--format", "json", url,
            ])
            let report = try run.report()
            #expect(run.status == 0, "\(name): \(value) did not reach the upstream: \(run.stdout) \(run.stderr)")
            #expect(report.probes.first?.outcome == "succeeded")
        }

        // And the negative: a header nginx does not set never appears.
        let absent = try await StagebuildProcess.run([
            "probe", "--proxy", "", "--expect-body", "\"name\": \"Forwarded\"", "--format", "json", url,
        ])
        #expect(absent.status == 1, "nginx's config sets no Forwarded header")
        #expect(try absent.report().probes.first?.reason == "expectationFailed")
    }
}
