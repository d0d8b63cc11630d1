import Curl
import Digests
import Dispatch
import Foundation
import Serialization
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The engine that shows what a Swift app on this machine sees: FoundationNetworking's
/// `URLSession` (on Linux built on libcurl, which reads the proxy from the environment).
///
/// What it honours: the route (given to libcurl through `http_proxy`, `https_proxy`,
/// `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`, `no_proxy`, `NO_PROXY`, set in this process to
/// exactly what the settings say), the method, headers, expectations and `--max-time`
/// (`timeoutIntervalForRequest` and `timeoutIntervalForResource`), and `-L` with `--max-redirs`
/// (each redirect followed is listed; without `-L` the 3xx is the answer, as with the curl
/// engine). Every other switch is refused (``unsupportedOptions(in:)``): on
/// Linux, FoundationNetworking has no server-trust challenge and sets none of the libcurl
/// options those switches need.
///
/// Failures carry the `URLError` this engine actually got (``FailureReason/appleError``), with
/// a note naming what an app on Apple platforms gets instead.
public struct URLSessionProbeEngine: ProbeEngine {
    /// `"urlsession"`.
    public let name = ProbeEngineKind.urlsession.rawValue
    /// The settings every call uses.
    public let settings: ProbeSettings
    private let session: URLSession
    private let redirectPolicy: RedirectPolicy

    /// An engine; sets this process's proxy variables for libcurl (call it before any other
    /// thread reads the environment: `setenv` is not safe against concurrent `getenv`).
    ///
    /// - Parameters:
    ///   - settings: the run's settings.
    ///   - setEnvironment: sets (`String`) or unsets (`nil`) one variable; `setenv`/`unsetenv`
    ///     of this process by default.
    /// - Throws: ``ProbeEngineError/optionsNotHonoured(engine:options:reasons:)`` for settings
    ///   URLSession cannot honour on Linux.
    public init(
        settings: ProbeSettings, setEnvironment: (String, String?) -> Void = URLSessionProbeEngine.setProcessVariable
    ) throws(ProbeEngineError) {
        let refused = Self.unsupportedOptions(in: settings)
        guard refused.isEmpty else {
            throw .optionsNotHonoured(
                engine: ProbeEngineKind.urlsession.rawValue, options: refused.map(\.option), reasons: refused.map(\.reason))
        }
        for (variable, value) in Self.proxyEnvironment(for: settings.proxy) {
            setEnvironment(variable, value)
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.effectiveMaxTime
        configuration.timeoutIntervalForResource = settings.effectiveMaxTime
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 64
        self.settings = settings
        let redirectPolicy = RedirectPolicy(settings: settings)
        self.redirectPolicy = redirectPolicy
        self.session = URLSession(configuration: configuration, delegate: redirectPolicy, delegateQueue: nil)
    }

    /// `setenv(name, value, 1)`, or `unsetenv(name)` for `nil`.
    ///
    /// - Parameters:
    ///   - name: the variable.
    ///   - value: its value, or `nil` to unset it.
    public static func setProcessVariable(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    /// Every option ``unsupportedOptions(in:)`` can refuse, in its order.
    public static let refusedOptionNames = [
        "--no-validate-domain-name", "--allow-invalid-certificates", "--pinned-public-key", "--cacert", "--proxy-cacert",
        "--proxy-insecure", "--proxytunnel", "--resolve", "--connect-timeout", "--compare-direct",
    ]

    /// The reason, its hint marked as one for the curl engine when it names an option this
    /// engine refuses (following it here would only give a usage error); a refusal by this
    /// engine itself (hop `client`) already says what to do here.
    ///
    /// - Parameter reason: a failure as classified.
    /// - Returns: the failure, e.g. with the hint `with --engine curl: add --cacert FILE ...`.
    public static func withHintForThisEngine(_ reason: FailureReason) -> FailureReason {
        guard reason.hop != .client, let hint = reason.hint, refusedOptionNames.contains(where: { hint.contains($0) }) else {
            return reason
        }
        var marked = reason
        marked.hint = "with --engine curl: " + hint
        return marked
    }

    /// The settings URLSession cannot honour on Linux, each with the reason.
    ///
    /// - Parameter settings: the run's settings.
    /// - Returns: `(option, reason)` pairs; empty when the engine can run.
    public static func unsupportedOptions(in settings: ProbeSettings) -> [(option: String, reason: String)] {
        let noTrustChallenge = "FoundationNetworking on Linux has no server-trust challenge"
        let noOption = "FoundationNetworking sets no such libcurl option"
        let policy = settings.security
        var refused: [(option: String, reason: String)] = []
        if !policy.validatesDomainName { refused.append(("--no-validate-domain-name", noTrustChallenge)) }
        if policy.allowsInvalidCertificates { refused.append(("--allow-invalid-certificates", noTrustChallenge)) }
        if !policy.pinnedPublicKeys.isEmpty { refused.append(("--pinned-public-key", noTrustChallenge)) }
        if policy.caFile != nil {
            refused.append(("--cacert", "FoundationNetworking sets CURLOPT_CAINFO to the system's CA bundle itself"))
        }
        if policy.proxyCAFile != nil { refused.append(("--proxy-cacert", noOption + " (CURLOPT_PROXY_CAINFO)")) }
        if policy.proxyInsecure { refused.append(("--proxy-insecure", noOption + " (CURLOPT_PROXY_SSL_VERIFYPEER)")) }
        if settings.forcesTunnel { refused.append(("--proxytunnel", noOption + " (CURLOPT_HTTPPROXYTUNNEL)")) }
        if !settings.resolve.isEmpty { refused.append(("--resolve", noOption + " (CURLOPT_RESOLVE)")) }
        if settings.connectTimeout != nil {
            refused.append(("--connect-timeout", "URLSession has only whole-request limits (use --max-time)"))
        }
        if settings.comparesDirect {
            refused.append(("--compare-direct", "FoundationNetworking on Linux shows no certificate to compare"))
        }
        return refused
    }

    /// The proxy variables that make libcurl (inside FoundationNetworking) take exactly the
    /// routes of `configuration`: every variable curl reads, set from the configuration's
    /// environment (`nil` to unset), then `--proxy` as `http_proxy`, `https_proxy` and
    /// `HTTPS_PROXY` (`--proxy ""` as `no_proxy=*`), and `--noproxy` as `no_proxy`/`NO_PROXY`.
    ///
    /// - Parameter configuration: the proxy settings.
    /// - Returns: `(variable, value)` pairs in the order to apply them.
    public static func proxyEnvironment(for configuration: ProxyConfiguration) -> [(String, String?)] {
        let names = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]
        var values: [String: String?] = [:]
        for name in names {
            let value = configuration.environment[name]
            values[name] = value?.isEmpty == false ? value : nil
        }
        if let proxy = configuration.proxy {
            if proxy.isEmpty {
                values["no_proxy"] = "*"
                values["NO_PROXY"] = "*"
            } else {
                for name in ["http_proxy", "https_proxy", "HTTPS_PROXY"] { values[name] = proxy }
            }
        }
        if let noProxy = configuration.noProxy, configuration.proxy != "" {
            values["no_proxy"] = noProxy
            values["NO_PROXY"] = noProxy
        }
        return names.map { ($0, values[$0] ?? nil) }
    }

    /// Makes one call with a `URLSessionDataTask` and waits for it.
    ///
    /// - Parameters:
    ///   - request: the call.
    ///   - cancellation: the run's switch; it cancels the task.
    /// - Returns: the result.
    public func probe(_ request: ProbeRequest, cancellation: ProbeCancellation) -> ProbeResult {
        let route = try? settings.route(for: request)
        if let cause = cancellation.cause {
            return .cancelled(request, engine: name, route: route, cause: cause, inFlight: false)
        }
        let urlRequest = redirectPolicy.urlRequest(for: request)

        let completion = Completion()
        let clock = ContinuousClock()
        let start = clock.now
        // The delegate takes the body as it arrives and keeps what the patterns read, so a body
        // of any length is held in bounded memory, as the curl engine holds it.
        let task = session.dataTask(with: urlRequest)
        redirectPolicy.start(task.taskIdentifier, request, completion: completion)
        let token = cancellation.onCancel { task.cancel() }
        task.resume()
        var (_, response, error) = completion.wait()
        cancellation.removeHandler(token)
        let redirects =
            redirectPolicy.take(task.taskIdentifier) ?? .init(first: request, current: request, completion: completion)
        // A body cut short at the limit ends the task as cancelled: that is the limit, not a cancellation.
        if redirects.keptAll == false { error = nil }
        response = response ?? task.response
        let elapsed = clock.now - start
        let milliseconds = elapsed.inSeconds * 1000

        var result = ProbeResult(
            target: request.target, method: request.method, repetition: request.repetition, engine: name, route: route,
            outcome: .succeeded, warnings: settings.proxy.notes(scheme: request.url.scheme ?? ""),
            timings: ProbeTimings(total: milliseconds))
        result.redirects = redirects.hops.compactMap { hop in
            hop.location.map { ProbeRedirect(status: hop.httpStatus ?? 0, location: $0) }
        }
        if !result.redirects.isEmpty {
            result.hops = redirects.hops
            result.route = redirects.hops.last?.route ?? route
        }
        // A failure belongs to the hop under way: its host, its route.
        let hopRoute = result.hops.isEmpty ? route : result.hops.last?.route ?? route
        var classifier = URLSessionFailureClassifier(request: redirects.current, route: hopRoute, settings: settings)
        var proxyCertificate: PeerCertificate?
        if let error {
            let code = (error as NSError).code
            if code == AppleClientError.cancelled.code, let cause = cancellation.cause {
                var cancelled = ProbeResult.cancelled(request, engine: name, route: route, cause: cause, inFlight: true)
                cancelled.timings = result.timings
                return cancelled
            }
            if classifier.needsProxyLook(description: (error as NSError).localizedDescription), let proxy = hopRoute?.server {
                // FoundationNetworking trusts the system's roots only, for the proxy as for the target.
                let chain = CurlProbeEngine(settings: settings).chain(
                    at: HostPort.joined(proxy.host, proxy.port), cancellation: cancellation,
                    deadline: .now + .seconds(max(settings.effectiveConnectTimeout, 1)))
                let check = CertificateChainCheck.check(
                    certificates: chain.compactMap(\.pem), caFile: nil, host: proxy.host, now: Int(time(nil)))
                classifier.proxyChainRefused = !chain.isEmpty && (check.verifyError != 0 || !check.hostMatches)
                proxyCertificate = chain.first
            }
            let reason = Self.withHintForThisEngine(
                classifier.failure(code: code, description: (error as NSError).localizedDescription))
            result.outcome = .failed(reason)
            result.message = reason.message
            result.tls = classifier.tlsFacts(reason: reason)
            result.proxyTLS = classifier.proxyTLSFacts(reason: reason, proxyCertificate: proxyCertificate)
            result.connectStatus = classifier.connectStatus(in: (error as NSError).localizedDescription)
            return result
        }
        guard let http = response as? HTTPURLResponse else {
            let reason = FailureReason.noResponse(hop: .target, detail: "URLSession returned no HTTP response")
            result.outcome = .failed(reason)
            result.message = reason.message
            return result
        }
        let fields = http.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String else { return nil }
            return (name: name, value: "\(value)")
        }
        result.httpStatus = http.statusCode
        let tunnel = route.map { settings.tunnels(request, on: $0) } ?? false
        if tunnel { result.connectStatus = 200 }
        let body = redirects.body
        if !result.hops.isEmpty { result.hops[result.hops.count - 1].httpStatus = http.statusCode }
        if let refusal = redirects.refusal {
            result.outcome = .failed(refusal)
            result.message = refusal.message
        } else if let route,
            let reason = ResponseCheck(request: request, route: route, tunnel: tunnel).failure(
                status: http.statusCode, statusLine: nil, fields: fields, body: body, bodyByteCount: redirects.bodyByteCount)
        {
            result.outcome = .failed(reason)
            result.message = reason.message
        }
        result.tls = classifier.tlsFacts(reason: result.outcome.failureReason)
        return result
    }
}

/// Follows redirects as `-L` and `--max-redirs` say, by ``RedirectRules`` (what the next hop
/// sends: FoundationNetworking itself would copy every header, `Authorization` and `Cookie`
/// included, to whatever host a redirect names), and lists each task's hops; without `-L` it
/// refuses every redirect, so a `3xx` is the response judged (as the curl engine does).
private final class RedirectPolicy: NSObject, URLSessionDataDelegate, Sendable {
    /// What one task's redirects came to.
    struct Record {
        /// The call's first request.
        var first: ProbeRequest
        /// The request of the hop now under way.
        var current: ProbeRequest
        /// Every hop so far, the one under way last (its status is set when it ends).
        var hops: [RedirectHop] = []
        /// Why a redirect was not followed (past `--max-redirs`, or refused by the rules); its
        /// answer is then the last one.
        var refusal: FailureReason?
        /// Where the task's end is handed to the waiting thread.
        var completion: Completion
        /// The body bytes kept (``Expectations/bodyBytesKept``), the count of all that arrived,
        /// and `false` once the task was stopped at the limit.
        var body: [UInt8] = []
        var bodyByteCount = 0
        var keptAll = true
    }

    private let settings: ProbeSettings
    private let records = Mutex<[Int: Record]>([:])

    init(settings: ProbeSettings) {
        self.settings = settings
    }

    /// The `URLRequest` of a probe request: its URL, method, header fields and body, and the
    /// run's User-Agent (`stagebuild/VERSION`, as the curl engine sends) unless `-H` gives one.
    func urlRequest(for request: ProbeRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        if !request.headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            urlRequest.setValue(settings.userAgent, forHTTPHeaderField: "User-Agent")
        }
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        return urlRequest
    }

    /// Starts a task's record.
    func start(_ task: Int, _ request: ProbeRequest, completion: Completion) {
        let route = try? settings.route(for: request)
        records.withLock {
            var record = Record(first: request, current: request, completion: completion)
            record.hops = [RedirectHop(request: request, route: route, httpStatus: nil, location: nil)]
            $0[task] = record
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard settings.followsRedirects else { return completionHandler(nil) }
        let location =
            response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }.map { "\($0.value)" }
            ?? request.url?.absoluteString ?? ""
        let next: URLRequest? = records.withLock { records in
            guard var record = records[task.taskIdentifier] else { return nil }
            defer { records[task.taskIdentifier] = record }
            let shown = Redaction.url(location)
            guard record.hops.count <= settings.maxRedirects else {
                record.refusal = .tooManyRedirects(limit: settings.maxRedirects, location: shown)
                return nil
            }
            switch RedirectRules.next(
                after: record.current, first: record.first, status: response.statusCode, location: location,
                allowedTargets: settings.allowedTargets)
            {
            case .follow(let nextRequest):
                record.hops[record.hops.count - 1].httpStatus = response.statusCode
                record.hops[record.hops.count - 1].location = shown
                let route = try? settings.route(for: nextRequest)
                record.hops.append(RedirectHop(request: nextRequest, route: route, httpStatus: nil, location: nil))
                record.current = nextRequest
                record.body = []
                record.bodyByteCount = 0
                return urlRequest(for: nextRequest)
            case .refuse(let reason):
                record.refusal = reason
                return nil
            }
        }
        completionHandler(next)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stop: Bool = records.withLock { records in
            let id = dataTask.taskIdentifier
            guard let expectations = records[id]?.first.expectations else { return false }
            // In place: a copy of the record would copy the body kept so far for every chunk.
            let kept = expectations.bodyBytesKept
            records[id]?.bodyByteCount += data.count
            let room = kept - (records[id]?.body.count ?? kept)
            if room > 0 { records[id]?.body.append(contentsOf: data.prefix(room)) }
            // Past the limit a pattern reads nothing more: stop, as the body is known to be longer.
            guard expectations.readsBody, (records[id]?.bodyByteCount ?? 0) > kept else { return false }
            records[id]?.keptAll = false
            return true
        }
        if stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let completion = records.withLock { $0[task.taskIdentifier]?.completion }
        completion?.finish(data: nil, response: task.response, error: error)
    }

    /// Hands over and forgets what a finished task's redirects came to.
    ///
    /// - Parameter task: The task's identifier.
    func take(_ task: Int) -> Record? {
        records.withLock { $0.removeValue(forKey: task) }
    }
}

/// A data task's completion, handed from URLSession's queue to the waiting worker thread.
private final class Completion: Sendable {
    private let value = Mutex<(Data?, URLResponse?, (any Error)?)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        value.withLock { $0 = (data, response, error) }
        done.signal()
    }

    func wait() -> (Data?, URLResponse?, (any Error)?) {
        done.wait()
        return value.withLock { $0 } ?? (nil, nil, nil)
    }
}
