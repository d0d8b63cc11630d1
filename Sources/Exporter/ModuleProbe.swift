import Curl
import Foundation
import ProbeKit
import Serialization

/// A module made ready to probe with: its settings read as the probe's (``ProbeSettings``,
/// ``Expectations``), patterns compiled and header fields checked once, when the config loads.
public struct ModuleProbe: Sendable {
    /// The module.
    public let module: ExporterModule
    let settings: ProbeSettings
    let headers: [RequestHeader]
    let expectations: Expectations

    /// Prepares a module of the `http` prober.
    ///
    /// - Parameters:
    ///   - module: The module.
    ///   - environment: The process's variables, for `proxy_from_environment`.
    ///   - userAgent: The `User-Agent` of each request and CONNECT, unless the module's
    ///     `headers` name one (blackbox sends `Blackbox Exporter/VERSION` by default).
    /// - Throws: ``ProbeInputError`` for a pattern, header field, pin or proxy URL the probe refuses.
    public init(_ module: ExporterModule, environment: [String: String], userAgent: String) throws(ProbeInputError) {
        self.module = module
        let http = module.http
        var settings = ProbeSettings()
        settings.userAgent = userAgent
        if let proxy = http.proxyURL {
            settings.proxy = ProxyConfiguration(proxy: proxy, noProxy: http.noProxy)
            settings.proxy.settingNames = (proxy: "proxy_url", noProxy: "no_proxy")
        } else if http.proxyFromEnvironment {
            settings.proxy = ProxyConfiguration(proxy: nil, noProxy: http.noProxy, environment: environment)
            settings.proxy.settingNames = (proxy: "proxy_url", noProxy: "no_proxy")
        } else {
            // blackbox uses no proxy unless told: proxy variables of the exporter's own
            // environment do not apply.
            settings.proxy = ProxyConfiguration(proxy: "")
        }
        var pins: [PublicKeyPin] = []
        for pin in http.pinnedPublicKeys { pins.append(try PublicKeyPin(parsing: pin)) }
        // Go's InsecureSkipVerify skips the chain and the name alike; Go's transport shakes hands
        // with an https:// proxy_url under the same tls_config (net/http's addTLS).
        settings.security = SecurityPolicy(
            validatesDomainName: http.validatesDomainName && !http.insecureSkipVerify,
            allowsInvalidCertificates: http.insecureSkipVerify, caFile: http.caFile, pinnedPublicKeys: pins,
            proxyCAFile: http.caFile, proxyInsecure: http.insecureSkipVerify)
        settings.security.minimumTLSVersion = http.minimumTLSVersion
        settings.security.maximumTLSVersion = http.maximumTLSVersion
        if let certificate = http.clientCertificateFile {
            settings.security.clientCertificate = (certificate, http.clientKeyFile)
        }
        // prometheus/common asks for HTTP/2 unless told not to, as libcurl does by default.
        settings.httpVersion = http.enablesHTTP2 ? nil : .http1_1
        settings.acceptEncoding = http.compression
        // blackbox prefers IPv6 unless told; without fallback only the preferred family is tried.
        if !http.ipProtocolFallback { settings.ipFamily = http.preferredIPProtocol == "ip4" ? .ipv4 : .ipv6 }
        // Go's client sends a target's path as written, dot segments too, and no field the
        // module does not name but its own.
        settings.keepsDotSegments = true
        settings.omitsCurlDefaultFields = true
        settings.followsRedirects = http.followsRedirects
        settings.maxRedirects = 10
        var connectHeaders: [RequestHeader] = []
        for header in http.proxyConnectHeaders {
            connectHeaders.append(try RequestHeader(parsing: "\(header.name): \(header.value)", option: "proxy_connect_header"))
        }
        settings.proxyHeaders = connectHeaders
        if !http.appleClients.isEmpty {
            var clients: [AppleClient] = []
            for name in http.appleClients {
                guard let client = AppleClient(option: name) else {
                    throw .invalidTarget(name, reason: "apple_clients are urlsession, afnetworking3, afnetworking4, alamofire5")
                }
                if !clients.contains(client) { clients.append(client) }
            }
            settings.appleClients = clients
        }
        self.settings = settings
        var headers: [RequestHeader] = []
        for header in http.headers { headers.append(try RequestHeader(parsing: "\(header.name): \(header.value)")) }
        for header in http.secretHeaders {
            var secret = try RequestHeader(parsing: "\(header.name): \(header.value)", option: "http_headers")
            secret.isSecret = true
            headers.append(secret)
        }
        self.headers = headers
        let statuses =
            http.acceptsAnyResponse
            ? StatusList(ranges: [100...599])
            : http.validStatusCodes.isEmpty
                ? StatusList(ranges: [200...299]) : StatusList(ranges: http.validStatusCodes.map { $0...$0 })
        var expectations = Expectations(statuses: statuses)
        expectations.bodySizeLimit = http.bodySizeLimit.map { $0 == 0 ? nil : $0 } ?? Expectations.defaultBodySizeLimit
        // blackbox decodes the body with the module's compression whatever the answer says, so a
        // body that is not in it fails: here the answer must say it is.
        if let compression = http.compression, compression != "identity" {
            expectations.headers.append(HeaderExpectation(name: "Content-Encoding", value: compression))
        }
        for pattern in http.failIfBodyNotMatches { expectations.requiredBodyPatterns.append(try BodyPattern(pattern)) }
        for pattern in http.failIfBodyMatches { expectations.forbiddenBodyPatterns.append(try BodyPattern(pattern)) }
        for match in http.failIfHeaderNotMatches {
            expectations.headerPatterns.append(
                HeaderPattern(
                    name: match.header, pattern: try BodyPattern(match.regexp), mustMatch: true, allowsMissing: match.allowMissing
                ))
        }
        for match in http.failIfHeaderMatches {
            expectations.headerPatterns.append(
                HeaderPattern(
                    name: match.header, pattern: try BodyPattern(match.regexp), mustMatch: false,
                    allowsMissing: match.allowMissing))
        }
        self.expectations = expectations
    }

    /// Probes a target once, bounded by `timeout` seconds, and returns its report and how long
    /// it took. Blocks the calling thread for at most that long. A request that cannot be
    /// prepared (``prepare(_:timeout:)``) is a failed probe, as blackbox's is: Prometheus keeps
    /// the target's series, with `probe_success` 0.
    ///
    /// - Parameters:
    ///   - target: The URL; blackbox's `target` without a scheme means `http://`.
    ///   - timeout: The whole probe's limit in seconds.
    ///   - allowedTargets: The targets it may ask for, redirects included (`--allow-target`).
    public func probe(_ target: String, timeout: Double, allowedTargets: TargetFilter? = nil) -> (ProbeResult, Double) {
        let started = ContinuousClock.now
        let text = target.contains("://") ? target : "http://" + target
        let request: ProbeRequest
        var settings: ProbeSettings
        do {
            (request, settings) = try prepare(text, timeout: timeout)
        } catch {
            let reason = FailureReason.requestNotPrepared(error.message, hint: error.hint)
            let result = ProbeResult(
                target: Redaction.url(text), method: module.http.method, engine: "curl", route: nil,
                outcome: .failed(reason), message: reason.message)
            return (result, (ContinuousClock.now - started).inSeconds)
        }
        // What the token request left of the probe's time.
        var left = max(0.001, timeout - (ContinuousClock.now - started).inSeconds)
        settings.maxTime = left
        settings.connectTimeout = left
        settings.allowedTargets = allowedTargets
        if let pacURL = module.http.pacURL {
            do {
                settings.pac = try Self.pac(pacURL, settings: settings)
            } catch {
                let source = PACScriptSource(pacURL)
                let reason = FailureReason.pacUnavailable(script: source.shown, detail: error.description)
                let result = ProbeResult(
                    target: Redaction.url(text), method: module.http.method, engine: "curl", route: nil,
                    outcome: .failed(reason), message: reason.message)
                return (result, (ContinuousClock.now - started).inSeconds)
            }
            // What the script's fetch left; each entry's connection gets half of it, so a proxy
            // that never answers leaves time for the next entry, as a device moves on.
            left = max(0.001, timeout - (ContinuousClock.now - started).inSeconds)
            settings.maxTime = left
            settings.connectTimeout = max(0.001, left / 2)
        }
        var result = CurlProbeEngine(settings: settings).probe(request, cancellation: ProbeCancellation())
        let seconds = (ContinuousClock.now - started).inSeconds
        // The report names the target as asked, not the renamed URL.
        if module.http.serverName != nil { result.target = Redaction.url(text) }
        // As blackbox's body_size_limit: Go's MaxBytesReader stops reading there and fails.
        if let limit = module.http.bodySizeLimit, limit > 0, let count = result.bodyByteCount, count > limit {
            result.bodyByteCount = limit
            if result.outcome == .succeeded {
                result.outcome = .failed(
                    .expectationFailed("the body is longer than body_size_limit (\(limit) bytes): \(count) bytes came"))
            }
        }
        // As blackbox: the last response decides (an https:// target redirected to http:// is not SSL).
        let isHTTPS = result.hops.last?.isHTTPS ?? request.isHTTPS
        // As blackbox: the response's protocol as Go names it (resp.Proto), compared as written.
        let proto = result.httpVersion.map { "HTTP/" + ($0.contains(".") ? $0 : $0 + ".0") }
        if result.outcome == .succeeded, !module.http.validHTTPVersions.isEmpty, let proto,
            !module.http.validHTTPVersions.contains(proto)
        {
            result.outcome = .failed(
                .expectationFailed(
                    "the response came in \(proto), which valid_http_versions (\(module.http.validHTTPVersions.joined(separator: ", "))) does not list"
                ))
        } else if result.outcome == .succeeded && module.http.failIfSSL && isHTTPS {
            result.outcome = .failed(.expectationFailed("the target was reached over TLS, and fail_if_ssl is set"))
        } else if result.outcome == .succeeded && module.http.failIfNotSSL && !isHTTPS {
            result.outcome = .failed(.expectationFailed("the target was reached without TLS, and fail_if_not_ssl is set"))
        }
        return (result, seconds)
    }

    /// The module's PAC script, read for each probe as its other files are: a URL fetched
    /// directly within the probe's time (``PACScriptSource/fetch(_:settings:)``), a path read.
    static func pac(_ text: String, settings: ProbeSettings) throws(PACScriptError) -> PACSettings {
        let source = PACScriptSource(text)
        switch source {
        case .url(let url):
            return PACSettings(script: try PACScriptSource.fetch(url, settings: settings), origin: source.shown)
        case .file(let path):
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw PACScriptError(message: "\(path) cannot be read")
            }
            return PACSettings(script: try PACScriptSource.text(Array(bytes), shown: path), origin: source.shown)
        }
    }
}
