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

    /// blackbox's default limit when a module sets no timeout and the scrape says none.
    public static let defaultTimeout = 10.0

    /// Prepares a module of the `http` prober.
    ///
    /// - Parameters:
    ///   - module: The module.
    ///   - environment: The process's variables, for `proxy_from_environment`.
    ///   - userAgent: The `User-Agent` of each request and CONNECT, unless the module's
    ///     `headers` name one (as blackbox's default `Blackbox Exporter/VERSION`).
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
        // Go's InsecureSkipVerify skips the chain and the name alike.
        settings.security = SecurityPolicy(
            validatesDomainName: http.validatesDomainName && !http.insecureSkipVerify,
            allowsInvalidCertificates: http.insecureSkipVerify, caFile: http.caFile, pinnedPublicKeys: pins)
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
        self.headers = headers
        let statuses =
            http.acceptsAnyResponse
            ? StatusList(ranges: [100...599])
            : http.validStatusCodes.isEmpty
                ? StatusList(ranges: [200...299]) : StatusList(ranges: http.validStatusCodes.map { $0...$0 })
        var expectations = Expectations(statuses: statuses)
        expectations.bodySizeLimit = http.bodySizeLimit
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
    /// it took. Blocks the calling thread for at most that long.
    ///
    /// - Parameters:
    ///   - target: The URL; blackbox's `target` without a scheme means `http://`.
    ///   - timeout: The whole probe's limit in seconds.
    ///   - allowedTargets: The targets it may ask for, redirects included (`--allow-target`).
    /// - Throws: ``ProbeInputError`` for a target the probe refuses.
    public func probe(
        _ target: String, timeout: Double, allowedTargets: TargetFilter? = nil
    ) throws(ProbeInputError) -> (ProbeResult, Double) {
        let started = ContinuousClock.now
        let text = target.contains("://") ? target : "http://" + target
        // Prometheus target lists hold `|`, `{}` and quotes (field lists, JSON filters).
        var url = try ProbeRequest.targetURL(text)
        var settings = self.settings
        var headers = self.headers
        // tls_config.server_name, as Go's tls.Config.ServerName: the URL names the server
        // name, so TLS asks for and checks it, while the connection goes to the target's host
        // (CURLOPT_CONNECT_TO) and Host keeps the target's authority.
        if let serverName = module.http.serverName, url.scheme?.lowercased() == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host
        {
            let port = components.port ?? 443
            let bracketed = HostPort.bracketed(host)
            components.host = serverName
            if let renamed = components.url {
                url = renamed
                settings.connectTo = ["\(serverName):\(port):\(bracketed):\(port)"]
                if !headers.contains(where: { $0.name.lowercased() == "host" }) {
                    headers.append(
                        RequestHeader(name: "Host", value: components.port == nil ? bracketed : "\(bracketed):\(port)"))
                }
            }
        }
        if let credential = module.http.credential, !headers.contains(where: { $0.name.lowercased() == "authorization" }) {
            if case .oauth2(let oauth2) = credential {
                // Asked for within the probe's time, as blackbox's client asks before its request.
                do throws(OAuth2TokenRequest.Failure) {
                    let value = try OAuth2TokenRequest(credentials: oauth2, userAgent: settings.userAgent)
                        .authorization(within: timeout)
                    // A token with a line break could add a header field of its own.
                    guard let header = try? RequestHeader(parsing: "Authorization: " + value, option: "oauth2") else {
                        throw OAuth2TokenRequest.Failure(
                            message: "the oauth2 token service answered a token that is no header value")
                    }
                    headers.append(header)
                } catch {
                    let reason = FailureReason.tokenNotObtained(error.message)
                    let result = ProbeResult(
                        target: Redaction.url(text), method: module.http.method, engine: "curl", route: nil,
                        outcome: .failed(reason), message: reason.message)
                    return (result, (ContinuousClock.now - started).inSeconds)
                }
            } else if let header = try Self.authorization(credential) {
                headers.append(header)
            }
        }
        for (name, path) in module.http.headerFiles {
            // Read for each probe, as prometheus/common reads http_headers files for each request.
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .invalidRequestHeader(name: name, reason: "cannot read http_headers file \(path)", option: "http_headers")
            }
            headers.append(
                try RequestHeader(
                    parsing: "\(name): \(text.trimmingCharacters(in: .whitespacesAndNewlines))", option: "http_headers"))
        }
        var request = try ProbeRequest(
            url: url, method: module.http.method, headers: headers, expectations: expectations)
        request.body = module.http.body.map { Array($0.utf8) }
        if let file = module.http.bodyFile {
            // Read for each probe, as blackbox opens it for each request.
            guard let bytes = FileManager.default.contents(atPath: file) else {
                throw .invalidTarget(file, reason: "body_file cannot be read")
            }
            request.body = Array(bytes)
        }
        // What the token request left of the probe's time.
        let left = max(0.001, timeout - (ContinuousClock.now - started).inSeconds)
        settings.maxTime = left
        settings.connectTimeout = left
        settings.allowedTargets = allowedTargets
        var result = CurlProbeEngine(settings: settings).probe(request, cancellation: ProbeCancellation())
        let seconds = (ContinuousClock.now - started).inSeconds
        // The report names the target as asked, not the renamed URL.
        if module.http.serverName != nil { result.target = Redaction.url(text) }
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

    /// The `Authorization` field of a module's credential, its files read now (prometheus/common
    /// reads them for each request, so a rotated secret is used at once); `nil` for `oauth2`,
    /// whose token ``OAuth2TokenRequest`` asks for.
    static func authorization(_ credential: HTTPModuleSettings.TargetCredential) throws(ProbeInputError) -> RequestHeader? {
        func read(_ secret: HTTPModuleSettings.SecretSource, _ key: String) throws(ProbeInputError) -> String {
            switch secret {
            case .inline(let text): return text
            case .file(let path):
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw .invalidRequestHeader(name: "Authorization", reason: "cannot read \(key) \(path)", option: key)
                }
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let value: String
        switch credential {
        case .basic(let username, let password):
            let pair =
                try read(username, "basic_auth username_file") + ":"
                + (try password.map { (secret) throws(ProbeInputError) in try read(secret, "basic_auth password_file") } ?? "")
            value = "Basic " + Data(pair.utf8).base64EncodedString()
        case .scheme(let type, let credentials):
            value = type + " " + (try read(credentials, "credentials_file"))
        case .oauth2:
            return nil
        }
        let key: String
        if case .basic = credential { key = "basic_auth" } else { key = "authorization" }
        return try RequestHeader(parsing: "Authorization: " + value, option: key)
    }
}
