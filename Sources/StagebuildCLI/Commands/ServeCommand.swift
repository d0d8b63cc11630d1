import Foundation
import SanityServer
import Serialization

/// `stagebuild serve`: the sanity upstream that answers with what reached it.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Run the sanity upstream that echoes what reached it."
    static let usage =
        "serve [--host ADDR] [--port N] [--name NAME] [--max-connections N] [--event-loops N] [--max-delay S] [--grace S] "
        + "[--log text|json]"
    static let discussion = """
        Answers HTTP/1.1 on ADDR:N with what arrived: method, target, every header field in
        arrival order, peer and local address, body length and SHA-256. Routes:

        \(routeList)

        Other paths get 404 with the list of routes.

        The first line of stdout is the bound address, e.g. http://127.0.0.1:41234 (use
        --port 0 to let the system pick a free port). One access-log line per request goes
        to stderr. SIGTERM or SIGINT stops accepting, lets requests in flight finish within
        --grace seconds, and exits 0, so it is a well-behaved PID 1 in a container.
        """
    /// One line per route of the server's table: pattern, then what it answers.
    static let routeList = Route.table.map { "  " + $0.pattern.padding(toLength: 18, withPad: " ", startingAt: 0) + $0.summary }
        .joined(separator: "\n")

    static let options = [
        ArgumentScanner.Option(
            names: ["--host"], takesValue: true, valueName: "ADDR", help: "Address to listen on (default 127.0.0.1; :: for IPv6)."
        ),
        ArgumentScanner.Option(
            names: ["--port"], takesValue: true, valueName: "N", help: "TCP port (default 8080; 0 picks a free one)."),
        ArgumentScanner.Option(
            names: ["--name"], takesValue: true, valueName: "NAME", help: "Server name shown in echoes (default stagebuild)."),
        ArgumentScanner.Option(
            names: ["--max-connections"], takesValue: true, valueName: "N",
            help: "Connections served at once (default 10000, or fewer when the descriptor limit is lower)."),
        ArgumentScanner.Option(
            names: ["--event-loops"], takesValue: true, valueName: "N",
            help: "Event loop threads (default one per processor, as nginx's worker_processes auto)."),
        ArgumentScanner.Option(
            names: ["--max-delay"], takesValue: true, valueName: "S", help: "Cap of /delay/MS, in seconds (default 10)."),
        ArgumentScanner.Option(
            names: ["--grace"], takesValue: true, valueName: "S", help: "Seconds requests in flight get at shutdown (default 5)."),
        ArgumentScanner.Option(
            names: ["--log"], takesValue: true, valueName: "text|json", help: "Access-log format on stderr (default text)."),
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw CommandFailure.usage("serve takes no arguments") }
        let defaults = ServerConfiguration()
        var configuration = defaults
        configuration.host = arguments.value("--host") ?? defaults.host
        configuration.port = try integer(arguments, "--port") ?? defaults.port
        configuration.name = arguments.value("--name") ?? defaults.name
        configuration.maxConnections =
            try integer(arguments, "--max-connections") ?? min(defaults.maxConnections, Self.descriptorBudget())
        configuration.eventLoops = try integer(arguments, "--event-loops") ?? defaults.eventLoops
        configuration.maxDelay = try seconds(arguments, "--max-delay") ?? defaults.maxDelay
        configuration.grace = try seconds(arguments, "--grace") ?? defaults.grace
        let format = arguments.value("--log") ?? "text"
        guard format == "text" || format == "json" else {
            throw CommandFailure.usage("--log must be text or json, not '\(format)'")
        }
        do {
            try configuration.validate()
        } catch .invalidConfiguration(let setting, let requirement) {
            throw CommandFailure.usage("\(Self.option(for: setting)) \(requirement)")
        } catch {
            throw CommandFailure.usage(error.description)
        }

        let log = context.standardError
        // One write per batch of entries: the log thread keeps up with the event loops.
        let server = SanityServer(
            configuration: configuration,
            accessLog: { entries in
                var lines = ""
                lines.reserveCapacity(entries.count * 64)
                for entry in entries {
                    if format == "json" {
                        lines += AccessLogFormat.json(entry)
                    } else {
                        AccessLogFormat.text(entry, appendingTo: &lines)
                    }
                    lines += "\n"
                }
                log.write(lines)
            },
            accessLogDropped: { count in
                log.write("stagebuild serve: \(count) access-log lines dropped: stderr is not read fast enough\n")
            })
        SignalShutdown.install { server.shutdown() }
        let address: SocketAddress
        do {
            address = try server.start()
        } catch .invalidHost(let host) {
            throw CommandFailure.usage("--host needs a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1, not '\(host)'")
        } catch {
            throw CommandFailure.error(
                .unavailable, "cannot listen on \(HostPort.joined(configuration.host, configuration.port)): \(error)")
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
        case .eventLoops: "--event-loops"
        case .maxDelay: "--max-delay"
        case .grace: "--grace"
        case .name: "--name"
        case .readDeadline, .maxHeaderBytes, .maxBodyBytes: setting.rawValue
        }
    }

    /// Connections the process's descriptors allow, one each plus some for the listener, the
    /// loops' signals and the log: the soft `RLIMIT_NOFILE` raised to the hard one first, as
    /// nginx's `worker_rlimit_nofile` and Go's runtime do.
    private static func descriptorBudget() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 - 64 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // Some descriptors stay free for the listener, the loops' epoll sets and signals, and
        // the log: 64, or a quarter of a small limit.
        let descriptors = Int(clamping: limit.rlim_cur)
        return max(descriptors - min(64, descriptors / 4), 1)
    }

    private static func integer(_ arguments: ArgumentScanner.Arguments, _ key: String) throws(CommandFailure) -> Int? {
        guard let text = arguments.value(key) else { return nil }
        guard let value = Int(text) else { throw CommandFailure.usage("\(key) needs a whole number, got '\(text)'") }
        return value
    }

    private static func seconds(_ arguments: ArgumentScanner.Arguments, _ key: String) throws(CommandFailure) -> Double? {
        guard let text = arguments.value(key) else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw CommandFailure.usage("\(key) needs a number of seconds, got '\(text)'")
        }
        return value
    }
}
