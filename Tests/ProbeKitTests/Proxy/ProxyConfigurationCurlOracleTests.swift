import Foundation
import ProbeKit
import TestSupport
import Testing

/// The same settings given to the curl command (7.88.1, Debian's `curl` package) and to
/// ``ProxyConfiguration``: both must choose the same route.
///
/// Every address is on loopback and nothing listens on the ports used, so curl's first
/// "Trying ADDRESS:PORT..." line shows its choice: proxies are 127.0.0.1 on a port of their
/// own, targets resolve to 127.0.0.3 through `--resolve`. Cases where stagebuild differs from
/// 7.88.1 on purpose (IPv6 no-proxy matching, SOCKS) are not here.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct ProxyConfigurationCurlOracleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var target: String
        var environment: [String: String] = [:]
        var proxy: String?
        var noProxy: String?
        var testDescription: String {
            var parts = [target] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            if let proxy { parts.append("--proxy '\(proxy)'") }
            if let noProxy { parts.append("--noproxy '\(noProxy)'") }
            return parts.joined(separator: " ")
        }
    }

    /// A route as curl's output shows it.
    enum Choice: Equatable {
        case proxy(port: Int)
        case direct
        case rejected
    }

    static let cases: [Case] = [
        Case(target: "http://api.test:29/", environment: ["http_proxy": "127.0.0.1:11"]),
        Case(target: "http://api.test:29/", environment: ["HTTP_PROXY": "127.0.0.1:11"]),
        Case(target: "http://api.test:29/", environment: ["HTTP_PROXY": "127.0.0.1:11", "ALL_PROXY": "127.0.0.1:14"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "HTTPS_PROXY": "127.0.0.1:13"]),
        Case(target: "https://api.test:29/", environment: ["HTTPS_PROXY": "127.0.0.1:13"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "", "HTTPS_PROXY": "127.0.0.1:13"]),
        Case(target: "https://api.test:29/", environment: ["http_proxy": "127.0.0.1:11"]),
        Case(target: "https://api.test:29/", environment: ["all_proxy": "127.0.0.1:14", "ALL_PROXY": "127.0.0.1:15"]),
        Case(target: "https://api.test:29/", environment: ["HTTPS_PROXY": "127.0.0.1:13", "all_proxy": "127.0.0.1:14"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "no_proxy": ".test"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": "API.TEST"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": "pi.test"]),
        Case(
            target: "https://api.test:29/",
            environment: ["https_proxy": "127.0.0.1:12", "no_proxy": "", "NO_PROXY": "api.test"]),
        Case(
            target: "https://api.test:29/",
            environment: ["https_proxy": "127.0.0.1:12", "no_proxy": "other.test", "NO_PROXY": "api.test"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": "*"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": " *"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": "a.test api.test"]),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12", "NO_PROXY": "api.test:29"]),
        Case(target: "http://127.0.0.5:29/", environment: ["http_proxy": "127.0.0.1:11", "NO_PROXY": "127.0.0.0/8"]),
        Case(target: "http://127.0.0.5:29/", environment: ["http_proxy": "127.0.0.1:11", "NO_PROXY": "127.0.0.0/30"]),
        Case(target: "http://127.0.0.5:29/", environment: ["http_proxy": "127.0.0.1:11", "NO_PROXY": "127.0.0.4/30"]),
        Case(target: "http://127.0.0.5:29/", environment: ["http_proxy": "127.0.0.1:11", "NO_PROXY": "127.0.0.0/0"]),
        Case(target: "http://127.0.0.5:29/", environment: ["http_proxy": "127.0.0.1:11", "NO_PROXY": "127.0.0.5"]),
        Case(target: "https://api.test:29/", environment: ["NO_PROXY": "api.test"], proxy: "127.0.0.1:16"),
        Case(target: "https://api.test:29/", environment: ["NO_PROXY": "api.test"], proxy: "127.0.0.1:16", noProxy: ""),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12"], proxy: ""),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12"], noProxy: "*"),
        Case(target: "https://api.test:29/", environment: ["https_proxy": "127.0.0.1:12"], noProxy: ".test"),
        Case(target: "https://api.test:29/", proxy: "127.0.0.1"),
        Case(target: "https://api.test:29/", proxy: "https://127.0.0.1"),
        Case(target: "https://api.test:29/", proxy: "HTTP://u%3Ax:p%40ss@127.0.0.1:17/"),
        Case(target: "https://api.test:29/", proxy: "http:///127.0.0.1:17"),
        Case(target: "https://api.test:29/", proxy: "ftp.example:17"),
        Case(target: "https://api.test:29/", proxy: "127.0.0.1:/x"),
        Case(target: "https://api.test:29/", proxy: "http://127.0.0.1:65536"),
        Case(target: "https://api.test:29/", proxy: "127.0.0.1:"),
        Case(target: "https://api.test:29/", proxy: "http://127.0.0.1:"),
    ]

    @Test(arguments: cases)
    func choosesTheRouteCurlChooses(_ item: Case) throws {
        #expect(try curlChoice(item) == stagebuildChoice(item))
    }

    private func stagebuildChoice(_ item: Case) throws -> Choice {
        let url = try #require(URL(string: item.target))
        let configuration = ProxyConfiguration(proxy: item.proxy, noProxy: item.noProxy, environment: item.environment)
        do {
            let route = try configuration.route(for: url)
            return route.server.map { .proxy(port: $0.port) } ?? .direct
        } catch {
            return .rejected
        }
    }

    private func curlChoice(_ item: Case) throws -> Choice {
        let url = try #require(URL(string: item.target))
        let host = try #require(url.host)
        let port = try #require(url.port)
        var arguments = ["-s", "-o", "/dev/null", "-v", "--connect-timeout", "2", "--resolve", "\(host):\(port):127.0.0.3"]
        if let proxy = item.proxy { arguments += ["--proxy", proxy] }
        if let noProxy = item.noProxy { arguments += ["--noproxy", noProxy] }
        arguments.append(item.target)

        let output = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/curl"), arguments,
            environment: item.environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }, limit: .seconds(30)
        ).stderr

        if output.contains("Unsupported proxy") { return .rejected }
        guard let trying = output.split(separator: "\n").first(where: { $0.contains("Trying ") }) else {
            Issue.record("curl said neither 'Trying' nor 'Unsupported proxy':\n\(output)")
            return .rejected
        }
        if trying.contains("127.0.0.1:"), let port = Int(trying.split(separator: ":").last?.prefix { $0.isNumber } ?? "") {
            return .proxy(port: port)
        }
        #expect(trying.contains("127.0.0.3:") || trying.contains("127.0.0.5:"), "\(trying)")
        return .direct
    }
}
