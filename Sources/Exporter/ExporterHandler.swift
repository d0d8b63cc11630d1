import Curl
import Dispatch
import Foundation
import Patterns
import ProbeKit
import SanityServer
import Synchronization

/// The exporter's HTTP side on the server's event loops: `GET /probe?target=URL&module=NAME`
/// runs one probe and answers its metrics, `GET /metrics` the exporter's own, `GET /` a page
/// of modules and recent probes, `GET /-/healthy` 200. A probe runs on a worker thread and
/// answers later (``Responder``), so no event loop waits for it.
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

        /// Options.
        public init() {}
    }

    let modules: [String: ModuleProbe]
    let moduleOrder: [ExporterModule]
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
        var modules: [String: ModuleProbe] = [:]
        for module in configuration.modules where module.isSupported {
            modules[module.name] = try ModuleProbe(module, environment: environment)
        }
        self.modules = modules
        self.moduleOrder = configuration.modules
        self.options = options
    }

    /// Routes a request; `/probe` answers later.
    public func answer(_ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder) -> HandlerAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .now(
                Self.text(405, "only GET and HEAD are answered\n", fields: [HTTPField(name: "Allow", value: "GET, HEAD")]))
        }
        let (path, query) = Self.split(request.target)
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
                    body: Array(ExporterPage.html(modules: moduleOrder, recent: statistics.recent).utf8)))
        case "/-/healthy":
            return .now(Self.text(200, "Healthy\n"))
        default:
            return .now(Self.text(404, "no such page: /probe, /metrics, / and /-/healthy are\n"))
        }
    }

    private func probe(query: [String: String], request: HTTPRequest, responder: Responder) -> HandlerAnswer {
        guard let target = query["target"], !target.isEmpty else {
            return .now(Self.text(400, "Target parameter is missing\n"))
        }
        let name = query["module"] ?? "http_2xx"
        guard let declared = moduleOrder.first(where: { $0.name == name }) else {
            return .now(Self.text(400, "Unknown module \"\(name)\"\n"))
        }
        guard let module = modules[name] else {
            return .now(
                Self.text(400, "Module \"\(name)\" uses the \(declared.prober) prober, which this exporter does not run\n"))
        }
        if let allowed = options.allowedTargets, !allowed.allows(target) {
            return .now(Self.text(403, "Target is not allowed by --allow-target\n"))
        }
        let scrapeTimeout = request.values(ofField: "X-Prometheus-Scrape-Timeout-Seconds").first.flatMap(Double.init)
        let timeout = Self.timeout(module: declared.timeout, scrape: scrapeTimeout, offset: options.timeoutOffset)
        let admitted = inFlight.add(1, ordering: .relaxed).newValue
        guard admitted <= options.maxConcurrent else {
            inFlight.subtract(1, ordering: .relaxed)
            return .now(Self.text(503, "Too many probes at once (--max-concurrent \(options.maxConcurrent))\n"))
        }
        queue.async { [self] in
            let response: HTTPResponse
            do {
                let (result, seconds) = try module.probe(target, timeout: timeout, allowedTargets: options.allowedTargets)
                statistics.record(module: name, result: result, seconds: seconds)
                let page = ProbeMetrics.families(of: result, durationSeconds: seconds).map(\.text).joined()
                response = HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: MetricFamily.contentType)],
                    body: Array(page.utf8))
            } catch {
                response = Self.text(400, "\(error)\n")
            }
            inFlight.subtract(1, ordering: .relaxed)
            responder.respond(response)
        }
        return .later
    }

    /// The probe's limit: the module's timeout, bounded by Prometheus's scrape timeout minus
    /// the offset (blackbox's `getTimeout`), else blackbox's default of 10 s bounded the same way.
    static func timeout(module: Double?, scrape: Double?, offset: Double) -> Double {
        let fromScrape = scrape.map { max($0 - offset, 0.1) }
        switch (module, fromScrape) {
        case (let module?, let scrape?): return min(module, scrape)
        case (let module?, nil): return module
        case (nil, let scrape?): return scrape
        case (nil, nil): return ModuleProbe.defaultTimeout
        }
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
            let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(value)
            let masked = Redaction.url(decoded)
            return masked == decoded ? String(pair) : "target=" + masked
        }
        return parts[0] + "?" + pairs.joined(separator: "&")
    }

    /// The path and the query's parameters (the first of each name), percent-decoded; `+` is a
    /// space, as in an HTML form (Go's `url.ParseQuery`).
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                func decoded(_ text: Substring) -> String {
                    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
                }
                let name = decoded(halves[0])
                if query[name] == nil { query[name] = halves.count == 2 ? decoded(halves[1]) : "" }
            }
        }
        return (path, query)
    }
}
