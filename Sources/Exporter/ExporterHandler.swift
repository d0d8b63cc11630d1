import Curl
import Dispatch
import Foundation
import Patterns
import ProbeKit
import SanityServer
import Serialization
import Synchronization

/// The exporter's HTTP side on the server's event loops: `GET /probe?target=URL&module=NAME`
/// runs one probe and answers its metrics, `GET /metrics` the exporter's own, `GET /` a page
/// of modules and recent probes, `GET /-/healthy` 200, `POST /-/reload` reads the config again
/// (``reload()``, as blackbox_exporter's endpoint). A probe runs on a worker thread and answers
/// later (``Responder``), so no event loop waits for it.
public final class ExporterHandler: RequestHandler {
    /// What the exporter was started with.
    public struct Options: Sendable {
        /// The most probes at once (`--max-concurrent`); beyond it `/probe` answers 503.
        public var maxConcurrent = 64
        /// The targets a probe may ask for (`--allow-target`), checked for the target and for
        /// every redirect before it is followed; `nil` allows any.
        public var allowedTargets: TargetFilter?
        /// Seconds taken off Prometheus's scrape timeout, as blackbox's `--timeout-offset`.
        public var timeoutOffset = 0.5
        /// Reads the config file again, for ``reload()``; `nil` when there is no file to read.
        /// Throws what makes the file unusable (its `FILE:LINE:COLUMN` error).
        public var configurationSource: (@Sendable () throws -> ExporterConfiguration)?
        /// Where each reload's outcome is told (a line; the command writes it to stderr), for
        /// SIGHUP and `POST /-/reload` alike.
        public var log: (@Sendable (String) -> Void)?
        /// The `User-Agent` of each probe's requests, unless a module's `headers` name one
        /// (the command's is `stagebuild/VERSION`, as the probe's).
        public var userAgent = "stagebuild"

        /// Options.
        public init() {}
    }

    /// The modules a probe runs with, swapped whole by a reload: a probe keeps the ones it
    /// started with.
    struct Modules: Sendable {
        var probes: [String: ModuleProbe]
        var order: [ExporterModule]
    }

    private let current: Mutex<Modules>
    private let environment: [String: String]
    let options: Options
    let statistics = ExporterStatistics()
    private let inFlight = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "stagebuild.exporter.probes", attributes: .concurrent)

    /// A handler.
    ///
    /// - Parameters:
    ///   - configuration: The modules.
    ///   - options: Limits.
    ///   - environment: The process's variables, for modules with `proxy_from_environment`.
    /// - Throws: ``ProbeInputError`` naming what an `http` module holds that the probe refuses.
    public init(configuration: ExporterConfiguration, options: Options, environment: [String: String]) throws(ProbeInputError) {
        current = Mutex(try Self.modules(of: configuration, environment: environment, userAgent: options.userAgent))
        self.environment = environment
        self.options = options
    }

    private static func modules(
        of configuration: ExporterConfiguration, environment: [String: String], userAgent: String
    ) throws(ProbeInputError) -> Modules {
        var probes: [String: ModuleProbe] = [:]
        for module in configuration.modules where module.isSupported {
            probes[module.name] = try ModuleProbe(module, environment: environment, userAgent: userAgent)
        }
        return Modules(probes: probes, order: configuration.modules)
    }

    /// The modules in use now.
    var modules: Modules { current.withLock { $0 } }

    /// Reads the config again through `Options.configurationSource` and, when it loads, serves
    /// its modules from now on; when it does not, the old modules stay. Either way the reload
    /// metrics say so (blackbox_exporter's `blackbox_exporter_config_last_reload_successful`).
    ///
    /// - Returns: `nil` after a reload, else why the old config stays.
    @discardableResult
    public func reload() -> String? {
        guard let source = options.configurationSource else { return "the exporter has no config file to read again" }
        do {
            let next = try Self.modules(of: try source(), environment: environment, userAgent: options.userAgent)
            current.withLock { $0 = next }
            statistics.recordReload(succeeded: true)
            options.log?("exporter: reloaded the config")
            return nil
        } catch {
            statistics.recordReload(succeeded: false)
            options.log?("exporter: reload failed, the old config stays: \(error)")
            return "\(error)"
        }
    }

    /// Routes a request; `/probe` answers later.
    public func answer(_ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder) -> HandlerAnswer {
        let (path, query) = Self.split(request.target)
        if path == "/-/reload" {
            guard request.method == "POST" else {
                return .now(
                    Self.text(405, "This endpoint requires a POST request.\n", fields: [HTTPField(name: "Allow", value: "POST")]))
            }
            // Reading and checking a config takes a while: a worker thread does it.
            queue.async { [self] in
                let failure = reload()
                responder.respond(failure.map { Self.text(500, "failed to reload config: \($0)\n") } ?? Self.text(200, ""))
            }
            return .later
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .now(
                Self.text(405, "only GET and HEAD are answered\n", fields: [HTTPField(name: "Allow", value: "GET, HEAD")]))
        }
        switch path {
        case "/probe": return probe(query: query, request: request, responder: responder)
        case "/metrics":
            return .now(
                HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: MetricFamily.contentType)],
                    body: Array(statistics.families(inFlight: inFlight.load(ordering: .relaxed)).map(\.text).joined().utf8)))
        case "/":
            return .now(
                HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: "text/html; charset=utf-8")],
                    body: Array(ExporterPage.html(modules: modules.order, recent: statistics.recent).utf8)))
        case "/-/healthy":
            return .now(Self.text(200, "Healthy\n"))
        default:
            return .now(Self.text(404, "no such page: /probe, /metrics, /, /-/healthy and /-/reload are\n"))
        }
    }

    private func probe(query: [String: String], request: HTTPRequest, responder: Responder) -> HandlerAnswer {
        guard let target = query["target"], !target.isEmpty else {
            statistics.recordRefusal("missing_target")
            return .now(Self.text(400, "Target parameter is missing\n"))
        }
        let name = query["module"] ?? "http_2xx"
        let modules = self.modules
        guard let declared = modules.order.first(where: { $0.name == name }) else {
            statistics.recordRefusal("unknown_module")
            return .now(Self.text(400, "Unknown module \"\(name)\"\n"))
        }
        guard let module = modules.probes[name] else {
            statistics.recordRefusal("module_not_run")
            return .now(Self.text(400, "Module \"\(name)\": \(declared.notRunReason ?? "not run")\n"))
        }
        if let allowed = options.allowedTargets, !allowed.allows(target) {
            statistics.recordRefusal("target_not_allowed")
            return .now(Self.text(403, "Target is not allowed by --allow-target\n"))
        }
        let scrapeTimeout = request.values(ofField: "X-Prometheus-Scrape-Timeout-Seconds").first
        guard let timeout = Self.timeout(module: declared.timeout, scrape: scrapeTimeout, offset: options.timeoutOffset) else {
            statistics.recordRefusal("bad_scrape_timeout")
            return .now(
                Self.text(
                    500,
                    "X-Prometheus-Scrape-Timeout-Seconds is no number of seconds: '\(ControlCharacters.escaped(scrapeTimeout ?? ""))'\n"
                ))
        }
        let admitted = inFlight.add(1, ordering: .relaxed).newValue
        guard admitted <= options.maxConcurrent else {
            inFlight.subtract(1, ordering: .relaxed)
            statistics.recordRefusal("max_concurrent")
            return .now(Self.text(503, "Too many probes at once (--max-concurrent \(options.maxConcurrent))\n"))
        }
        statistics.recordStart()
        queue.async { [self] in
            let (probed, seconds) = module.probe(target, timeout: timeout, allowedTargets: options.allowedTargets)
            // As the probe's reports: every text the page, the debug log and the root page keep,
            // redacted where it stands (a PAC answer may hold user info).
            let result = probed.redacted()
            statistics.record(module: name, result: result, seconds: seconds)
            let page = ProbeMetrics.families(
                of: result, durationSeconds: seconds, followsRedirects: declared.http.followsRedirects
            ).map(\.text).joined()
            let response =
                query["debug"] == "true"
                ? Self.text(200, Self.debugText(result: result, metrics: page, module: declared, timeout: timeout))
                : HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: MetricFamily.contentType)],
                    body: Array(page.utf8))
            inFlight.subtract(1, ordering: .relaxed)
            responder.respond(response)
        }
        return .later
    }

    /// The probe's limit: the module's timeout, bounded by Prometheus's scrape timeout minus
    /// the offset (blackbox's `getTimeout`), else blackbox's default of 10 s bounded the same way.
    /// A probe's limit in seconds as blackbox's `getTimeout` decides it: the scrape's
    /// `X-Prometheus-Scrape-Timeout-Seconds` (120 when absent or 0) less `offset`, or the
    /// module's `timeout` when that is shorter, or when the scrape leaves less than nothing.
    /// Never below a millisecond: a limit of 0 would be libcurl's "no limit".
    ///
    /// - Parameters:
    ///   - module: The module's `timeout`; `nil` when none is set.
    ///   - scrape: The header's value as sent; `nil` without one.
    ///   - offset: `--timeout-offset`.
    /// - Returns: The limit; `nil` when the header is no number (blackbox answers 500).
    static func timeout(module: Double?, scrape: String?, offset: Double) -> Double? {
        var seconds = 0.0
        if let scrape {
            guard let value = Double(scrape) else { return nil }
            seconds = value
        }
        if seconds == 0 { seconds = 120 }
        let fromScrape = seconds - offset
        let moduleSeconds = module ?? 0
        let chosen = (moduleSeconds > 0 && moduleSeconds < fromScrape) || fromScrape < 0 ? moduleSeconds : fromScrape
        return max(chosen, 0.001)
    }

    /// `/probe?…&debug=true`, in blackbox's three parts: what the probe found (its text report,
    /// in the module's words), the metrics it would have answered, and the module. The module
    /// is named, not written out: its settings may hold secrets (blackbox masks them).
    static func debugText(result: ProbeResult, metrics: String, module: ExporterModule, timeout: Double) -> String {
        "Logs for the probe:\n" + ModuleWords.translate(ReportFormat.text.render([result]))
            + "\n\n\nMetrics that would have been returned:\n" + metrics
            + "\n\n\nModule configuration:\nmodule \(module.name), prober \(module.prober), timeout \(timeout) s"
            + " (the module's settings are in the config file, not repeated here: they may hold secrets)\n"
    }

    static func text(_ status: Int, _ text: String, fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, fields: [HTTPField(name: "Content-Type", value: "text/plain; charset=utf-8")] + fields,
            body: Array(text.utf8))
    }

    /// A request target as the access log may show it: a `target` parameter's user info (a
    /// token or password in the probed URL) masked as the probe's reports mask it, whether it
    /// was written raw or percent-encoded.
    public static func loggable(_ requestTarget: String) -> String {
        let parts = requestTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return requestTarget }
        let pairs = parts[1].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard pair.hasPrefix("target=") else { return String(pair) }
            let value = pair.dropFirst("target=".count)
            let decoded = Self.formDecoded(value)
            let masked = Redaction.url(decoded)
            return masked == decoded ? String(pair) : "target=" + masked
        }
        return parts[0] + "?" + pairs.joined(separator: "&")
    }

    /// A query's name or value, ``PercentEncoding/formDecodedBytes(_:)`` read as UTF-8.
    static func formDecoded(_ text: Substring) -> String {
        String(decoding: PercentEncoding.formDecodedBytes(Array(text.utf8)[...]), as: UTF8.self)
    }

    /// The path and the query's parameters (the first of each name), percent-decoded; `+` is a
    /// space, as in an HTML form (Go's `url.ParseQuery`).
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        return (path, parts.count == 2 ? PercentEncoding.formFields(parts[1]) : [:])
    }
}
