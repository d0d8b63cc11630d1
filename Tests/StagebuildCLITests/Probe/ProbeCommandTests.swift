import Foundation
import StagebuildCLI
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `stagebuild probe` surface: help, usage errors (64), unreadable files (74), exit
/// statuses of real runs against loopback peers, the deadline, and SIGINT (130) on the binary.
@Suite struct ProbeCommandTests {
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let scratch = try Scratch()
        return scratch.run(["probe"] + arguments, environment: environment)
    }

    // MARK: - Help

    @Test func helpListsEveryOptionTheExitStatusesAndTheJSONDocument() throws {
        let result = try run(["--help"])
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: Check HTTP(S) calls through a proxy"))
        #expect(result.stdout.contains("USAGE: stagebuild probe [--proxy URL]"))
        let options = [
            "-x, --proxy URL", "--noproxy LIST", "--proxytunnel", "--pac FILE|URL", "--wpad", "--wpad-domain DOMAIN",
            "-U, --proxy-user USER:PASSWORD", "--connect-to HOST1:PORT1:HOST2:PORT2", "--pac-my-address IPV4", "--pac-only",
            "--proxy-basic", "--proxy-digest", "--proxy-ntlm",
            "--proxy-negotiate", "--proxy-anyauth", "-k, --insecure", "--validate-domain-name", "--no-validate-domain-name",
            "--allow-invalid-certificates", "--cacert FILE", "--pinned-public-key sha256//BASE64", "--proxy-cacert FILE",
            "--proxy-insecure", "--resolve HOST:PORT:ADDR", "--connect-timeout SECONDS", "--max-time SECONDS",
            "--deadline SECONDS", "--expect-status LIST", "--expect-header NAME[=VALUE]", "--expect-body REGEX",
            "-X, --request METHOD", "-H, --header 'NAME: VALUE'", "--targets FILE", "--repeat N", "--concurrency N",
            "--format FORMAT", "--engine ENGINE", "-h, --help",
        ]
        for option in options { #expect(result.stdout.contains("  \(option)"), "\(option)") }
        for status in [
            "0 all calls succeeded", "1 a call failed", "64 usage", "65 a --targets", "74 a file", "129 hung up",
            "130 interrupted",
            "143 terminated",
        ] {
            #expect(result.stdout.contains(status), "\(status)")
        }
        #expect(result.stdout.contains("docs/probe-json.md"))
        #expect(try run(["-h"]).stdout == result.stdout)
        #expect(try Scratch().run(["help", "probe"]).stdout == result.stdout)
    }

    @Test func theOverviewListsProbe() throws {
        let overview = try Scratch().run(["--help"]).stdout
        #expect(overview.contains("\n  probe       Check HTTP(S) calls through a proxy"))
        #expect(overview.contains("130 interrupted"))
    }

    // MARK: - Usage errors

    @Test(arguments: [
        ([], "give at least one URL, or --targets FILE"),
        (
            ["--validate-domain-name", "--no-validate-domain-name", "http://a.test/"],
            "choose one of --validate-domain-name and --no-validate-domain-name"
        ),
        (
            ["--expect-status", "2xx", "http://a.test/"],
            "invalid --expect-status \"2xx\": \"2xx\" is not a status code (100-599)"
        ),
        (
            ["--expect-header", "Bad Name", "http://a.test/"],
            "invalid --expect-header \"Bad Name\": the name must be a field name (RFC 9110 token characters)"
        ),
        (
            ["--expect-body", "(open", "http://a.test/"],
            "invalid --expect-body \"(open\": not a valid RE2 regular expression: missing ): (open"
        ),
        (["-H", "NoColon", "http://a.test/"], "invalid -H: write it as 'Name: value'"),
        (
            ["-X", "GET /", "http://a.test/"],
            "invalid -X \"GET /\": a method is a token of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 section 9.1)"
        ),
        (["--format", "yaml", "http://a.test/"], "--format must be text, json or junit, not 'yaml'"),
        (
            ["-X", "HEAD", "--expect-body", "ok", "http://a.test/"],
            "-X HEAD fetches no body, so --expect-body can never match: leave one of them out"
        ),
        (["--engine", "wget", "http://a.test/"], "--engine must be curl or urlsession, not 'wget'"),
        (["--repeat", "0", "http://a.test/"], "--repeat must be a whole number from 1 to 100000, not '0'"),
        (["--concurrency", "many", "http://a.test/"], "--concurrency must be a whole number from 1 to 1024, not 'many'"),
        (["--max-time", "-1", "http://a.test/"], "--max-time must be a number of seconds from 0.001 to 86400, not '-1'"),
        (
            ["--connect-timeout", "0.0001", "http://a.test/"],
            "--connect-timeout must be a number of seconds from 0.001 to 86400, not '0.0001'"
        ),
        (["--deadline", "100000", "http://a.test/"], "--deadline must be a number of seconds from 0.001 to 86400, not '100000'"),
        (
            ["--pinned-public-key", "abc", "http://a.test/"],
            "invalid --pinned-public-key \"abc\": a pin starts with \"sha256//\" followed by base64 (curl's CURLOPT_PINNEDPUBLICKEY form)"
        ),
        (["--resolve", "a.test:443", "http://a.test/"], "invalid --resolve \"a.test:443\": write it as HOST:PORT:ADDRESS"),
        (["ftp://a.test/"], "invalid target \"ftp://a.test/\": the URL must start with http:// or https://"),
        (["http://a.test:99999/"], "invalid target \"http://a.test:99999/\": the port must be a number from 0 to 65535"),
        (
            ["http://a.test:99999999999999999999/"],
            "invalid target \"http://a.test:99999999999999999999/\": the port must be a number from 0 to 65535"
        ),
        (["http://[::g]/"], "invalid target \"http://[::g]/\": [::g] is not an IPv6 address"),
        (
            ["http://[127.0.0.1]/"],
            "invalid target \"http://[127.0.0.1]/\": brackets hold IPv6 addresses only; write an IPv4 address without them"
        ),
        (
            ["--proxy", "http://u:Qx/Zk@p.test:1", "http://a.test/"],
            "invalid proxy \"http://u:***@p.test:1\" (from --proxy): the user name or password holds \"/\", which must be written %2F"
        ),
        (
            ["--proxy", "socks5://p.test:1080", "http://a.test/"],
            "unsupported proxy scheme \"socks5\" in \"socks5://p.test:1080\" (from --proxy): stagebuild probes through http:// and https:// proxies only (curl would use SOCKS here)"
        ),
        (
            ["--engine", "urlsession", "--no-validate-domain-name", "--resolve", "a.test:443:127.0.0.1", "https://a.test/"],
            "--engine urlsession cannot honour --no-validate-domain-name (FoundationNetworking on Linux has no server-trust challenge); --resolve (FoundationNetworking sets no such libcurl option (CURLOPT_RESOLVE)); use --engine curl, or leave them out"
        ),
        (["--bogus"], "unknown option '--bogus'"),
        (
            ["--pac", "missing.pac", "--proxy", "http://p.test:1", "http://a.test/"],
            "a PAC script chooses each call's proxy: leave out --proxy (curl's view of the environment is still noted)"
        ),
        (["--pac", "missing.pac", "--wpad", "http://a.test/"], "choose one of --pac and --wpad"),
        (["--pac-only", "http://a.test/"], "--pac-only needs --pac FILE|URL or --wpad"),
        (["--pac-my-address", "10.0.0.1", "http://a.test/"], "--pac-my-address needs --pac FILE|URL or --wpad"),
        (["--wpad-domain", "corp.test", "http://a.test/"], "--wpad-domain needs --pac FILE|URL or --wpad"),
        (
            ["--pac", "missing.pac", "--noproxy", "a.test", "http://a.test/"],
            "a PAC script decides which hosts go direct (its DIRECT answers): leave out --noproxy, or change the script"
        ),
        (["--pac", "", "http://a.test/"], "--pac takes a file or an http:// or https:// URL, not an empty word"),
        (
            ["--pac", "ftp://files.test/proxy.pac", "http://a.test/"],
            "--pac takes a file, a file: URL or an http:// or https:// URL, not a ftp: URL"
        ),
        (
            ["--wpad", "--wpad-domain", "bad domain!", "http://a.test/"],
            "--wpad-domain takes a DNS domain of two labels or more such as corp.example, not 'bad domain!'"
        ),
        (
            ["--wpad", "--wpad-domain", "corp", "http://a.test/"],
            "--wpad-domain takes a DNS domain of two labels or more such as corp.example, not 'corp'"
        ),
        (
            ["--proxy-user", "alice", "http://a.test/"],
            "--proxy-user takes USER:PASSWORD (curl would ask for the password; the probe does not)"
        ),
        (
            ["--proxy", "http://u:p@p.test:1", "--proxy-user", "a:b", "http://a.test/"],
            "--proxy already carries credentials: give them once, there or in --proxy-user"
        ),
        (
            ["--pac", "missing.pac", "--pac-my-address", "::1", "http://a.test/"],
            "--pac-my-address takes an IPv4 address, as myIpAddress() returns one, not '::1'"
        ),
        (
            ["--engine", "urlsession", "--pac", "missing.pac", "http://a.test/"],
            "a PAC script is followed by the curl engine only: FoundationNetworking on Linux has no PAC support "
                + "(swift-corelibs-foundation#5199)"
        ),
        (
            ["--connect-to", "a.test:443", "http://a.test/"],
            "invalid --connect-to \"a.test:443\": write it as HOST1:PORT1:HOST2:PORT2, as curl's --connect-to"
        ),
        (["-A", "ua\r\nX-Injected: 1", "http://a.test/"], "invalid -A: the value may not contain CR, LF or NUL"),
        (
            ["--proxy-header", "X-Bad: a\nb", "http://a.test/"],
            "invalid --proxy-header for \"X-Bad\": the value may not contain CR, LF or NUL"
        ),
    ])
    func usageErrorsExitSixtyFour(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("USAGE: stagebuild probe [--proxy URL]") == true)
        #expect(lines.last == "See 'stagebuild probe --help'.")
    }

    @Test func usageErrorsNeverShowAPassword() throws {
        let cases: [[String]] = [
            ["--proxy", "http://u:S3cretPW@p.test:99999", "http://a.test/"],
            ["ftp://u:S3cretPW@a.test/"],
            ["--format", "yaml", "--proxy", "http://u:S3cretPW@p.test:1", "http://a.test/"],
            ["--engine", "urlsession", "--resolve", "a:1:127.0.0.1", "https://u:S3cretPW@a.test/"],
            // A raw `#`, `/` or `?` ends the authority for a URL parser, not the password.
            ["--proxy", "http://u:S3cretPW#x@p.test:1", "http://a.test/"],
            ["--proxy", "http://u:S3cret/PW@p.test:1", "http://a.test/"],
            ["https://u:S3cretPW?x@a.test/"],
        ]
        for arguments in cases {
            let result = try run(arguments)
            #expect(result.status == .usage)
            #expect(!result.stderr.contains("S3cretPW"), "\(arguments)")
        }
        try #require(cases.count >= 5)
        #expect(try run(cases[0]).stderr.contains("u:***@p.test:99999"))
        #expect(try run(cases[4]).stderr.contains("\"http://u:***@p.test:1\""))
    }

    @Test func unreadableFilesExitSeventyFour() throws {
        let cacert = try run(["--cacert", "/nonexistent/ca.pem", "https://a.test/"])
        #expect(cacert.status == .ioError)
        #expect(cacert.stderr == "error: cannot read --cacert /nonexistent/ca.pem: No such file or directory\n")
        let targets = try run(["--targets", "/nonexistent/targets.txt"])
        #expect(targets.status == .ioError)
        #expect(targets.stderr.hasPrefix("error: cannot read --targets /nonexistent/targets.txt: No such file or directory\n"))
        let folder = try run(["--targets", "/"])
        #expect(folder.status == .ioError)
        #expect(folder.stderr.hasPrefix("error: cannot read --targets /: is a directory\n"))
    }

    @Test func aTargetsFileThatIsNotUTF8IsBadDataNamingTheByte() throws {
        let scratch = try Scratch()
        try scratch.write("", to: "placeholder")
        let path = scratch.path + "/targets.bin"
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x68, 0x74, 0x74, 0x70, 0x0A, 0xFF, 0xFE]))
        let result = try run(["--targets", path])
        #expect(result.status == .dataError)
        #expect(
            result.stderr.hasPrefix(
                "error: cannot read --targets \(path): not valid UTF-8 text: invalid byte 0xFF at byte offset 5 (line 2, column 1)\n"
            ))
    }

    @Test func aCAFileOpenSSLCannotReadIsBadDataNamingTheCertificate() throws {
        let scratch = try Scratch()
        let good = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2dW\n-----END CERTIFICATE-----\n"
        try scratch.write(good, to: "damaged.pem")
        let result = try run(["--cacert", scratch.path + "/damaged.pem", "https://a.test/"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("certificate 1 cannot be read by OpenSSL"), "\(result.stderr)")
    }

    @Test func aCAFileWithoutAPEMCertificateIsBadData() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID().uuidString).txt")
        try "just a host name\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["--cacert", file.path, "https://a.test/"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("holds no PEM certificate"), "\(result.stderr)")
    }

    @Test func aBadURLInATargetsFileIsBadDataNamedByFileAndLine() throws {
        let scratch = try Scratch()
        try scratch.write("# comment\n\nhttp://a.test/\nhttp://u:S3cretPW@a.test:99999/\n", to: "targets.txt")
        let result = scratch.run(["probe", "--targets", "targets.txt"])
        #expect(result.status == .dataError)
        #expect(
            result.stderr
                == "error: targets.txt:4: invalid target \"http://u:***@a.test:99999/\": the port must be a number from 0 to 65535\n"
        )
    }

    @Test func targetsFilesAddUpAndAnEmptyOneIsBadData() throws {
        let scratch = try Scratch()
        try scratch.write("# nothing here\n", to: "empty.txt")
        let empty = scratch.run(["probe", "--targets", "empty.txt"])
        #expect(empty.status == .dataError)
        #expect(empty.stderr == "error: --targets empty.txt holds no URL\n")
        let closed = try LoopbackPort.unused()
        try scratch.write("http://127.0.0.1:\(closed)/a\n", to: "a.txt")
        try scratch.write("http://127.0.0.1:\(closed)/b\n", to: "b.txt")
        let both = scratch.run(["probe", "--targets", "a.txt", "--targets", "b.txt", "http://127.0.0.1:\(closed)/c"])
        #expect(both.status == .checkFailed)
        #expect(both.stdout.hasSuffix("\n0 succeeded, 3 failed, 0 cancelled\n"), "\(both.stdout)")
        let stdinTwice = scratch.run(["probe", "--targets", "-", "--targets", "-"])
        #expect(stdinTwice.status == .usage)
        #expect(stdinTwice.stderr.hasPrefix("error: --targets - reads standard input, which can be read once: give it once\n"))
    }

    // MARK: - Runs

    @Test func failedCallsExitOneWithTheReportOnStandardOutput() throws {
        let closed = try LoopbackPort.unused()
        let scratch = try Scratch()
        try scratch.write("# two targets\nhttp://127.0.0.1:\(closed)/a\n\nhttp://127.0.0.1:\(closed)/b\n", to: "targets.txt")
        let result = scratch.run(["probe", "--targets", "targets.txt", "--repeat", "2", "--format", "json"])
        #expect(result.status == .checkFailed)
        #expect(result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let probes = try #require(object["probes"] as? [[String: Any]])
        #expect(probes.map { $0["target"] as? String } == ["a", "b", "a", "b"].map { "http://127.0.0.1:\(closed)/\($0)" })
        #expect(probes.allSatisfy { $0["reason"] as? String == "connectFailed" })
        #expect(object["summary"] as? [String: Int] == ["succeeded": 0, "failed": 4, "cancelled": 0])
    }

    @Test func optionsWithoutEffectOnTheseCallsAreSaidOnce() throws {
        let closed = try LoopbackPort.unused()
        let pin = "sha256//" + Data(count: 32).base64EncodedString()
        let result = try run([
            "--proxytunnel", "--pinned-public-key", pin, "http://127.0.0.1:\(closed)/a", "http://127.0.0.1:\(closed)/b",
        ])
        #expect(result.status == .checkFailed)
        #expect(
            result.stderr == """
                warning: --pinned-public-key applies to https:// targets only; the http:// ones are not pinned
                warning: --proxytunnel has no effect: no call goes through a proxy

                """)
    }

    @Test func successExitsZeroWithTheTextReport() throws {
        let server = try LoopbackSocket.pythonHTTPServer()
        defer { server.terminate() }
        let result = try run(["http://127.0.0.1:\(server.port)/", "--max-time", "5"])
        #expect(result.status == .success)
        #expect(result.stdout.hasPrefix("succeeded  GET http://127.0.0.1:\(server.port)/\n"))
        #expect(result.stdout.hasSuffix("\n1 succeeded, 0 failed, 0 cancelled\n"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when standard output is not a terminal")
    }

    @Test func deadlineCancelsTheRunAndExitsOne() throws {
        let silent = try SilentListener()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try run(["--deadline", "0.3", "--format", "junit", "http://127.0.0.1:\(silent.port)/"])
        #expect(clock.now - start < .seconds(3))
        #expect(result.status == .checkFailed)
        #expect(
            result.stdout.contains(
                "<error type=\"cancelled\" message=\"cancelled in flight: the --deadline of 0.3 s ended the run\"/>"))
    }

    @Test(arguments: [(SIGINT, Int32(130), "interrupted (SIGINT)"), (SIGTERM, Int32(143), "terminated (SIGTERM)")])
    func aSignalCancelsTheRunPrintsTheResultsAndExits(signal: Int32, status: Int32, cause: String) throws {
        let silent = try SilentListener()
        let run = try ProcessRun.run(
            try ProcessRun.builtExecutable("stagebuild"), ["probe", "--format", "json", "--max-time", "10", "--targets", "-"],
            environment: ["PATH": "/usr/bin:/bin"], input: Data("http://127.0.0.1:\(silent.port)/\n".utf8),
            interruptAfter: .milliseconds(700), signal: signal, limit: .seconds(30))
        let data = run.standardOutput
        #expect(run.status == status)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let probe = try #require((object["probes"] as? [[String: Any]])?.first)
        #expect(probe["outcome"] as? String == "cancelled")
        #expect(probe["message"] as? String == "cancelled in flight: \(cause)")
        #expect((probe["urlError"] as? [String: Any])?["code"] as? Int == -999)
    }
}

/// Loopback peers for the probe command's runs.
enum LoopbackSocket {
    /// A Python `http.server` on 127.0.0.1, ended by ``terminate()``, or when the test process
    /// closes its standard input (also when the test process dies).
    struct Server {
        let port: Int
        let process: BackgroundProcess

        /// Ends the server by closing its standard input: a child of a test thread inherits that
        /// thread's blocked signals (SIGTERM among them), so a signal other than SIGKILL may never
        /// reach it.
        func terminate() { process.stop() }
    }

    static func pythonHTTPServer() throws -> Server {
        let process = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-u", "-c",
                "import http.server as h, os, sys, threading; "
                    + "s = h.ThreadingHTTPServer(('127.0.0.1', 0), h.SimpleHTTPRequestHandler); "
                    + "print(s.server_address[1], flush=True); "
                    + "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start(); "
                    + "s.serve_forever()",
            ], in: FileManager.default.temporaryDirectory)
        let line = try process.line(within: .seconds(20))
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.stop()
            throw CocoaError(.fileReadUnknown)
        }
        return Server(port: port, process: process)
    }
}
