import Exporter
import Foundation
import Patterns
import ProbeKit
import SanityServer
import Serialization
import StageKit
import YAML

/// `stagebuild exporter`: the probe as a Prometheus target, blackbox_exporter style.
enum ExporterCommand: Subcommand {
    static let name = "exporter"
    static let summary = "Serve probes to Prometheus, as blackbox_exporter does, with the probe's reasons."
    static let usage =
        "exporter --config FILE [--listen HOST:PORT] [--max-concurrent N] [--allow-target REGEX]... "
        + "[--timeout-offset S] | exporter --check-config FILE"
    static let discussion = """
        Reads blackbox_exporter's config format (modules with the http prober; tcp, icmp, dns
        and grpc modules load and are listed as not run) and answers:

          /probe?target=URL&module=NAME   one probe's metrics (module http_2xx when none);
                                          &debug=true: its report, metrics and module as text
          /metrics                        the exporter's own metrics
          /                               the modules and the last probes' reports
          /-/healthy                      200
          /-/reload                       POST: read the config file again

        Besides blackbox's metric names, a failed probe has probe_failure_info{hop, reason,
        url_error} naming the hop and the reason as `stagebuild probe` reports them. Each
        probe is bounded by its module's timeout and by Prometheus's
        X-Prometheus-Scrape-Timeout-Seconds minus --timeout-offset (120 s without it). A request
        that cannot be prepared (a file the module names unreadable, an OAuth 2.0 token not
        obtained, a target that cannot be called) is a failed probe: requestNotPrepared.

        An exporter that probes any URL it is asked for lets whoever reaches it make requests
        from its network (server-side request forgery): it listens on 127.0.0.1 by default,
        and --allow-target limits the targets (each REGEX must match the whole target); a
        redirect is checked against them too before it is followed, and one they do not allow
        fails the probe (redirectRefused) with nothing sent to it.

        SIGHUP or POST /-/reload reads the config file again, as blackbox_exporter does: a file
        that loads replaces the modules (probes already running finish with the old ones); one
        that does not is reported on stderr (and in the POST's 500 answer) and the old modules
        stay. blackbox_exporter_config_last_reload_successful on /metrics says which.

        --check-config FILE exits 0 when the file loads (listing the modules it will not run, and
        why), else 65 with FILE:LINE:COLUMN, or 74 when it cannot be read.
        SIGTERM or SIGINT stops it gracefully (exit 0); a port already taken exits 69.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--config"], takesValue: true, valueName: "FILE", help: "blackbox_exporter's config file (blackbox.yml)."),
        ArgumentScanner.Option(
            names: ["--check-config"], takesValue: true, valueName: "FILE", help: "Check a config file and exit (0, 65 or 74)."),
        ArgumentScanner.Option(
            names: ["--listen"], takesValue: true, valueName: "HOST:PORT",
            help: "Address to serve on (default 127.0.0.1:9115; :9115 for every address)."),
        ArgumentScanner.Option(
            names: ["--max-concurrent"], takesValue: true, valueName: "N",
            help: "Probes at once; beyond it /probe answers 503 (default 64)."),
        ArgumentScanner.Option(
            names: ["--allow-target"], takesValue: true, valueName: "REGEX",
            help: "Probe only targets that this RE2 pattern matches whole (repeatable)."),
        ArgumentScanner.Option(
            names: ["--timeout-offset"], takesValue: true, valueName: "S",
            help: "Seconds taken off Prometheus's scrape timeout (default 0.5, as blackbox)."),
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw CommandFailure.usage("exporter takes no arguments") }
        if let file = arguments.value("--check-config") {
            let (_, configuration) = try load(file, options: .init(), context: context)
            // A module that loads but is not run says why, so no key goes unnoticed.
            let notRun = configuration.modules.compactMap { module in module.notRunReason.map { "  \(module.name): \($0)\n" } }
            context.standardOutput.write("\(file): OK\n" + notRun.joined())
            return .success
        }
        guard let file = arguments.value("--config") else { throw CommandFailure.usage("exporter needs --config FILE") }
        var options = ExporterHandler.Options()
        options.userAgent = "stagebuild/\(StagebuildCommand.version)"
        if let text = arguments.value("--max-concurrent") {
            guard let count = Int(text), count >= 1 else {
                throw CommandFailure.usage("--max-concurrent needs a whole number of at least 1, got '\(text)'")
            }
            options.maxConcurrent = count
        }
        if let text = arguments.value("--timeout-offset") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw CommandFailure.usage("--timeout-offset needs a number of seconds, got '\(text)'")
            }
            options.timeoutOffset = seconds
        }
        var allowed: [RegularExpression] = []
        for pattern in arguments.all("--allow-target") {
            do {
                // The pattern alone first, so RE2's complaint quotes what the user wrote.
                _ = try RegularExpression(pattern)
                // Whole-target matches, as Prometheus's relabelling anchors its regexes.
                allowed.append(try RegularExpression(TargetFilter.anchored(pattern)))
            } catch {
                throw CommandFailure.usage("--allow-target: \(error)")
            }
        }
        if !allowed.isEmpty { options.allowedTargets = TargetFilter(patterns: allowed, option: "--allow-target") }
        let (host, port) = try listenAddress(arguments.value("--listen") ?? "127.0.0.1:9115")
        let path = Paths.absolute(file, from: context.currentDirectory)
        let fileSystem = context.fileSystem
        options.configurationSource = {
            try ExporterConfiguration(parsing: try fileSystem.readText(at: path), file: file)
        }
        let log = context.standardError
        options.log = { log.write("\($0)\n") }
        let (handler, _) = try load(file, options: options, context: context)
        let serverConfiguration = ServerConfiguration(host: host, port: port, name: "stagebuild-exporter")
        let server = SanityServer(configuration: serverConfiguration, handler: handler) { entries in
            var lines = ""
            for var entry in entries {
                // A probed URL's user info never reaches the log.
                entry.target = entry.target.map(ExporterHandler.loggable)
                AccessLogFormat.text(entry, appendingTo: &lines)
                lines += "\n"
            }
            log.write(lines)
        }
        SignalShutdown.install(onHangup: { handler.reload() }) { server.shutdown() }
        let address: SocketAddress
        do {
            address = try server.start()
        } catch .invalidHost(let bad) {
            throw CommandFailure.usage("--listen needs a numeric IPv4 or IPv6 address, not '\(bad)'")
        } catch {
            throw CommandFailure.error(.unavailable, "cannot listen on \(HostPort.joined(host, port)): \(error)")
        }
        context.standardOutput.write(address.url + "\n")
        server.waitUntilStopped()
        return .success
    }

    /// The config made ready to serve, its patterns, headers and pins checked as the probe
    /// will use them.
    ///
    /// - Throws: `CommandFailure`, 65 with why the config cannot be used, 74 when it cannot be read.
    private static func load(
        _ file: String, options: ExporterHandler.Options, context: CommandContext
    ) throws(CommandFailure) -> (ExporterHandler, ExporterConfiguration) {
        let path = Paths.absolute(file, from: context.currentDirectory)
        let text: String
        do {
            text = try context.fileSystem.readText(at: path)
        } catch {
            throw CommandFailure.unreadable(file, error)
        }
        do {
            let configuration = try ExporterConfiguration(parsing: text, file: file)
            return (
                try ExporterHandler(configuration: configuration, options: options, environment: context.environment),
                configuration
            )
        } catch let error as YAMLConfigError {
            throw CommandFailure.error(.dataError, error.description)
        } catch {
            throw CommandFailure.error(.dataError, "\(file): \(error)")
        }
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every address, as Go's listeners read it).
    static func listenAddress(_ text: String) throws(CommandFailure) -> (host: String, port: Int) {
        guard let (host, written) = HostPort.split(text[...]), let port = written.flatMap({ Int($0) }),
            (0...65_535).contains(port)
        else { throw CommandFailure.usage("--listen needs HOST:PORT, e.g. 127.0.0.1:9115 or [::1]:9115, not '\(text)'") }
        return (host.isEmpty ? "::" : String(host), port)
    }
}
