import Foundation
import SanityServer

/// `stagebuild serve`: the sanity upstream that answers with what reached it.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Run the sanity upstream that echoes what reached it."
    static let usage =
        "serve [--host ADDR] [--port N] [--name NAME] [--max-connections N] [--max-delay S] [--grace S] [--log text|json]"
    static let discussion = """
        Answers HTTP/1.1 on ADDR:N with what arrived: method, target, every header field in
        arrival order, peer and local address, body length and SHA-256. Routes: / and
        /anything[/...] (echo as JSON, or text when the client prefers text/plain), /headers,
        /ip (the TCP peer, never a header), /status/CODE, /delay/MS (capped by --max-delay),
        /healthz. Other paths get 404 with the list of routes.

        The first line of stdout is the bound address, e.g. http://127.0.0.1:41234 (use
        --port 0 to let the system pick a free port). One access-log line per request goes
        to stderr. SIGTERM or SIGINT stops accepting, lets requests in flight finish within
        --grace seconds, and exits 0, so it is a well-behaved PID 1 in a container.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--host"], takesValue: true, valueName: "ADDR", help: "Address to listen on (default 127.0.0.1; :: for IPv6)."
        ),
        ArgumentScanner.Option(
            names: ["--port"], takesValue: true, valueName: "N", help: "TCP port (default 8080; 0 picks a free one)."),
        ArgumentScanner.Option(
            names: ["--name"], takesValue: true, valueName: "NAME", help: "Server name shown in echoes (default stagebuild)."),
        ArgumentScanner.Option(
            names: ["--max-connections"], takesValue: true, valueName: "N", help: "Connections served at once (default 512)."),
        ArgumentScanner.Option(
            names: ["--max-delay"], takesValue: true, valueName: "S", help: "Cap of /delay/MS, in seconds (default 10)."),
        ArgumentScanner.Option(
            names: ["--grace"], takesValue: true, valueName: "S", help: "Seconds requests in flight get at shutdown (default 5)."),
        ArgumentScanner.Option(
            names: ["--log"], takesValue: true, valueName: "text|json", help: "Access-log format on stderr (default text)."),
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no arguments") }
        let defaults = ServerConfiguration()
        var configuration = defaults
        configuration.host = arguments.value("--host") ?? defaults.host
        configuration.port = try integer(arguments, "--port") ?? defaults.port
        configuration.name = arguments.value("--name") ?? defaults.name
        configuration.maxConnections = try integer(arguments, "--max-connections") ?? defaults.maxConnections
        configuration.maxDelay = try seconds(arguments, "--max-delay") ?? defaults.maxDelay
        configuration.grace = try seconds(arguments, "--grace") ?? defaults.grace
        let format = arguments.value("--log") ?? "text"
        guard format == "text" || format == "json" else { throw UsageError("--log must be text or json, not '\(format)'") }
        do {
            try configuration.validate()
        } catch .invalidConfiguration(let setting, let requirement) {
            throw UsageError("\(Self.option(for: setting)) \(requirement)")
        } catch {
            throw UsageError(error.description)
        }

        let log = context.standardError
        let server = SanityServer(configuration: configuration) { entry in
            log.write((format == "json" ? AccessLogFormat.json(entry) : AccessLogFormat.text(entry)) + "\n")
        }
        // SIGTERM and SIGINT are blocked before any server thread exists (threads inherit the
        // mask), and one thread takes them with sigwait(2): no handler runs in signal context,
        // and a signal sent at any moment after this line, even before the address is printed,
        // is kept pending until that thread takes it, never lost or ignored.
        var termination = sigset_t()
        sigemptyset(&termination)
        sigaddset(&termination, SIGTERM)
        sigaddset(&termination, SIGINT)
        pthread_sigmask(SIG_BLOCK, &termination, nil)
        let waiter = Thread { [termination] in
            var set = termination
            var received: Int32 = 0
            sigwait(&set, &received)
            server.shutdown()
        }
        waiter.start()
        let address: SocketAddress
        do {
            address = try server.start()
        } catch .invalidHost(let host) {
            throw UsageError("--host needs a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1, not '\(host)'")
        } catch {
            context.reportError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
            return .unavailable
        }
        context.standardOutput.write(address.url + "\n")
        // The address line is this command's contract with scripts: without it, stop.
        if context.standardOutput.writeFailure != nil {
            server.shutdown(grace: 0)
            return .ioError
        }
        server.waitUntilStopped()
        return .success
    }

    /// The option that sets a server setting, for messages; settings without one keep their name.
    private static func option(for setting: ServerConfiguration.Setting) -> String {
        switch setting {
        case .port: "--port"
        case .maxConnections: "--max-connections"
        case .maxDelay: "--max-delay"
        case .grace: "--grace"
        case .name: "--name"
        case .readDeadline, .maxHeaderBytes, .maxBodyBytes: setting.rawValue
        }
    }

    private static func integer(_ arguments: ArgumentScanner.Arguments, _ key: String) throws(UsageError) -> Int? {
        guard let text = arguments.value(key) else { return nil }
        guard let value = Int(text) else { throw UsageError("\(key) needs a whole number, got '\(text)'") }
        return value
    }

    private static func seconds(_ arguments: ArgumentScanner.Arguments, _ key: String) throws(UsageError) -> Double? {
        guard let text = arguments.value(key) else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError("\(key) needs a number of seconds, got '\(text)'")
        }
        return value
    }
}
