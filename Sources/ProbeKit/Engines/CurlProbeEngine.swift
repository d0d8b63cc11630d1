import Curl
import Digests
import Foundation
import Serialization

/// The default engine: libcurl driven directly, so every switch is honoured exactly.
///
/// Each call gets its own ``EasyHandle`` (and so its own connection: timings are never those
/// of a reused connection). Options per call (curl_easy_setopt(3)):
/// - the route's options (``ProxyRoute/curlOptions``), `CURLOPT_HTTPPROXYTUNNEL` for
///   `--proxytunnel`;
/// - `CURLOPT_CONNECTTIMEOUT_MS` and `CURLOPT_TIMEOUT_MS` from the settings;
/// - `CURLOPT_NOBODY` for `HEAD`, `CURLOPT_CUSTOMREQUEST` for other methods than `GET`;
///   `CURLOPT_HTTPHEADER` for `-H`, `CURLOPT_RESOLVE` for `--resolve`;
/// - for `https://` targets: `CURLOPT_SSL_VERIFYPEER`, `CURLOPT_SSL_VERIFYHOST`,
///   `CURLOPT_CAINFO`, `CURLOPT_PINNEDPUBLICKEY` from the policy, and `CURLOPT_CERTINFO`;
/// - for `https://` proxies: `CURLOPT_PROXY_CAINFO`, `CURLOPT_PROXY_SSL_VERIFYPEER`/`VERIFYHOST`;
/// - `CURLOPT_VERBOSE`, captured (never printed) for OpenSSL's words and the server's key hash.
public struct CurlProbeEngine: ProbeEngine {
    /// `"curl"`.
    public let name = ProbeEngineKind.curl.rawValue
    /// The settings every call uses.
    public let settings: ProbeSettings

    /// An engine.
    ///
    /// - Parameter settings: the run's settings.
    public init(settings: ProbeSettings) {
        self.settings = settings
    }

    /// Makes one call with libcurl and classifies its end (see ``CurlFailureClassifier``).
    /// With `-L`, each redirect is a hop of its own (``RedirectFollower``): its own route, TLS
    /// policy and facts, every hop within the one `--max-time`.
    ///
    /// - Parameters:
    ///   - request: the call.
    ///   - cancellation: the run's switch.
    /// - Returns: the result.
    public func probe(_ request: ProbeRequest, cancellation: ProbeCancellation) -> ProbeResult {
        guard settings.followsRedirects else { return probeOnce(request, cancellation: cancellation).result }
        return RedirectFollower(settings: settings).follow(request) { hop, remaining in
            var hopSettings = settings
            hopSettings.remainingTime = remaining
            return CurlProbeEngine(settings: hopSettings).probeOnce(hop, cancellation: cancellation)
        }
    }

    /// One request alone (libcurl follows nothing): its result, and where its answer points
    /// when it is a redirect the call follows (the answer is then not judged: the next hop's is).
    /// With `--pac`, the script's entries are tried in order (``PACRouting``), each a call of
    /// its own within what is left of the call's time.
    private func probeOnce(
        _ request: ProbeRequest, cancellation: ProbeCancellation
    ) -> (result: ProbeResult, location: String?) {
        if let pac = settings.pac {
            return PACRouting(settings: settings, pac: pac).probe(request, engine: name, cancellation: cancellation) {
                route, remaining in
                var entrySettings = settings
                entrySettings.remainingTime = remaining
                return CurlProbeEngine(settings: entrySettings).call(request, route: route, cancellation: cancellation)
            }
        }
        let route: ProxyRoute
        do {
            route = try settings.route(for: request)
        } catch {
            let result = ProbeResult(
                target: request.target, method: request.method, repetition: request.repetition, engine: name, route: nil,
                outcome: .failed(.proxySettingUnusable(error.description)),
                message: error.description)
            return (result, nil)
        }
        var made = call(request, route: route, cancellation: cancellation)
        if case .cancelled = made.result.outcome { return made }
        made.result.warnings += settings.proxy.notes(scheme: request.url.scheme ?? "")
        return made
    }

    /// One request on one route.
    private func call(
        _ request: ProbeRequest, route: ProxyRoute, cancellation: ProbeCancellation
    ) -> (result: ProbeResult, location: String?) {
        if let cause = cancellation.cause {
            return (.cancelled(request, engine: name, route: route, cause: cause, inFlight: false), nil)
        }
        let tunnel = settings.tunnels(request, on: route)
        // The looks after a failure (the refused certificate, --compare-direct's handshake) are
        // part of the call: they get what is left of its --max-time, or are skipped.
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int((settings.remainingTime ?? settings.effectiveMaxTime) * 1000))
        var classifier = CurlFailureClassifier(request: request, route: route, tunnel: tunnel, settings: settings)
        let received: Received
        switch receive(
            request, route: route, tunnel: tunnel, classifier: classifier, cancellation: cancellation, deadline: deadline)
        {
        case .cancelled(let result): return (result, nil)
        case .received(let answer): received = answer
        }
        let response = received.response
        // The chain the call already fetched (or its second look): the verdicts need no other
        // connection; only --compare-direct makes one more, to the target itself.
        let chain = !request.isHTTPS ? [] : response.certificates.isEmpty ? received.secondLook : response.certificates
        // A proxy's own error page inside the tunnel: only one that decrypts it can write there.
        let answeredInside =
            request.isHTTPS && route.server != nil && response.statusCode >= 400
            ? response.heads.last.flatMap { ProxyErrorAnswer(fields: CurlFailureClassifier.fields($0), body: response.body) }
                .flatMap { $0.provesInterception ? $0 : nil } : nil
        classifier.certificateFrom = certificateSource(
            request, route: route, chain: chain,
            answeredInside: answeredInside.map { (evidence: $0.evidence, product: $0.product) },
            cancellation: cancellation, deadline: deadline)
        let location = received.failure == nil ? Self.redirectToFollow(response, settings: settings) : nil
        var reason =
            received.failure.map {
                classifier.failure(of: $0, secondLook: received.secondLook, proxyCertificate: received.proxyCertificate)
            } ?? (location == nil ? classifier.failure(of: response) : nil)
        reason = classifier.explainingNegotiate(reason, log: response.debugLog)
        var result = self.result(
            request, route: route, tunnel: tunnel, received: received, reason: reason, classifier: classifier)
        if request.isHTTPS {
            addCertificateFacts(
                to: &result, request: request, response: response, chain: chain, answeredInside: answeredInside,
                certificateFrom: classifier.certificateFrom)
        } else if !settings.appleClients.isEmpty, AppTransportSecurity.covers(host: request.host) {
            result.appleClients = AppleClientVerdicts.cleartextVerdicts(
                host: request.host, device: settings.appleDevice, clients: settings.appleClients)
        }
        if result.route?.server?.scheme == .https {
            for index in result.appleClients.indices {
                result.appleClients[index].warnings.append(AppleClientVerdicts.httpsProxyNote)
            }
        }
        if settings.collectsTrace { result.trace = Redaction.text(response.debugLog.text) }
        // The whole call, its looks included: what the wall clock saw.
        if var timings = result.timings {
            timings.total = max(timings.total, (ContinuousClock.now - started).inSeconds * 1000)
            result.timings = timings
        }
        return (result, location)
    }

    /// What one transfer brought back, with the looks its failure needed.
    private struct Received {
        var response: CurlResponse
        var failure: CurlError?
        /// The target's chain from a second handshake, when the transfer refused it unseen.
        var secondLook: [PeerCertificate] = []
        /// An HTTPS proxy's certificate: from the transfer, or from a look of its own.
        var proxyCertificate: PeerCertificate?
        var proxyCertificateFromLook = false
    }

    /// A transfer's end: cancelled mid-flight, or an answer (or failure) to classify.
    private enum TransferEnd {
        case cancelled(ProbeResult)
        case received(Received)
    }

    /// Runs the transfer, then the look a failure needs to be told exactly (the certificate
    /// the transfer refused, or the HTTPS proxy's), within the call's deadline.
    private func receive(
        _ request: ProbeRequest, route: ProxyRoute, tunnel: Bool, classifier: CurlFailureClassifier,
        cancellation: ProbeCancellation, deadline: ContinuousClock.Instant
    ) -> TransferEnd {
        let transfer = Self.transfer(
            options(for: request, route: route, tunnel: tunnel), cancellation: cancellation,
            keepingBodyBytes: request.expectations.bodyBytesKept)
        let httpsProxy = route.server?.scheme == .https
        var proxyChain: [PeerCertificate] = []
        var received: Received
        switch transfer {
        case .success(let answer):
            let (response, chain) = answer.separatingProxyCertificates(httpsProxy: httpsProxy)
            (received, proxyChain) = (Received(response: response), chain)
        case .failure(var error):
            let (response, chain) = (error.partialResponse ?? CurlResponse()).separatingProxyCertificates(httpsProxy: httpsProxy)
            error.partialResponse = response
            if error.code == .abortedByCallback, let cause = cancellation.cause {
                var result = ProbeResult.cancelled(request, engine: name, route: route, cause: cause, inFlight: true)
                result.timings = Self.timings(response.timings)
                result.remoteAddress = Self.remoteAddress(response)
                return .cancelled(result)
            }
            (received, proxyChain) = (Received(response: response, failure: error), chain)
            if classifier.needsSecondLook(error) {
                received.secondLook = secondLook(
                    request, route: route, tunnel: tunnel, cancellation: cancellation, deadline: deadline)
            } else if classifier.needsProxyLook(error), proxyChain.isEmpty, let proxy = route.server {
                received.proxyCertificate = look(
                    at: "\(proxy.hostForURL):\(proxy.port)", cancellation: cancellation, deadline: deadline)
                received.proxyCertificateFromLook = received.proxyCertificate != nil
            }
        }
        received.proxyCertificate = received.proxyCertificate ?? proxyChain.first
        return .received(received)
    }

    /// The call's result from its answer and the reason it failed, if it did: statuses, TLS
    /// facts, timings, the body's size.
    private func result(
        _ request: ProbeRequest, route: ProxyRoute, tunnel: Bool, received: Received, reason: FailureReason?,
        classifier: CurlFailureClassifier
    ) -> ProbeResult {
        let response = received.response
        let tls = classifier.tlsFacts(response: response, reason: reason, secondLook: received.secondLook.first)
        let failedConnect = tunnel && response.connectStatusCode >= 300
        var result = ProbeResult(
            target: request.target, method: request.method, repetition: request.repetition, engine: name, route: route,
            outcome: reason.map(ProbeOutcome.failed) ?? .succeeded, message: reason?.message,
            warnings: classifier.warnings(tls: tls),
            httpStatus: response.statusCode > 0 && !failedConnect ? response.statusCode : nil,
            connectStatus: tunnel && response.connectStatusCode > 0
                && (response.completedConnect || response.connectStatusCode >= 300) ? response.connectStatusCode : nil,
            tls: tls, timings: Self.timings(response.timings), remoteAddress: Self.remoteAddress(response),
            proxyTLS: classifier.proxyTLSFacts(
                response: response, reason: reason, proxyCertificate: received.proxyCertificate,
                fromLook: received.proxyCertificateFromLook))
        if result.httpStatus != nil {
            result.bodyByteCount = response.bodyByteCount
            result.contentLength = response.headers.last { $0.name.lowercased() == "content-length" }.flatMap {
                Int($0.value.trimmingHTTPWhitespace())
            }
            result.httpVersion = Self.httpVersions[response.httpVersion]
        }
        return result
    }

    /// What an `https://` call's chain tells, added to its result: whose certificate it is
    /// (an interceptor's own answer and a pin on its key said so), the chain's earliest expiry
    /// and the leaf's fingerprint, Apple's certificate requirements, and each Apple client's
    /// verdict.
    private func addCertificateFacts(
        to result: inout ProbeResult, request: ProbeRequest, response: CurlResponse, chain: [PeerCertificate],
        answeredInside: ProxyErrorAnswer?, certificateFrom: CertificateSource?
    ) {
        result.certificateFrom = certificateFrom
        if let from = certificateFrom, from.origin == .interceptor, let issuer = chain.first?.issuer {
            if let reason = Self.interceptorsOwnAnswer(
                result, request: request, response: response, answer: answeredInside, source: from)
            {
                result.outcome = .failed(reason)
                result.message = reason.message
            }
            // The key seen through an interceptor is the interceptor's: pinning it defeats the pin.
            if case .failed(var reason) = result.outcome, reason.code == .pinnedKeyMismatch {
                reason.hint =
                    "the key seen is the intercepting proxy's (\(issuer)), not the target's: pinning it would defeat "
                    + "the pin; the target's own key cannot be seen through this proxy"
                result.outcome = .failed(reason)
            }
        }
        if var tls = result.tls {
            tls.earliestExpiry = chain.compactMap { $0.pem.flatMap(CertificateFacts.init(pem:))?.notAfter }.min()
            tls.leafFingerprintSHA256 = chain.first?.pem.flatMap(PEMCertificates.fingerprintSHA256(of:))
            result.tls = tls
        }
        let device = deviceForVerdicts
        if let facts = DeviceTrust.facts(
            chain: chain, host: request.host, pins: settings.security.pinnedPublicKeys, device: device, tls: result.tls,
            now: Int(time(nil)))
        {
            var facts = facts
            facts.interceptor = result.certificateFrom?.interceptor
            result.appleTrust = facts.checks
            result.appleRootOnlyThisMachineTrusts = facts.rootOnlyThisMachineTrusts
            if !settings.appleClients.isEmpty {
                result.appleClients = AppleClientVerdicts.verdicts(
                    for: facts, policy: settings.security, device: device, clients: settings.appleClients)
                // ATS judges the handshake's version and cipher: not seen when the probe's own
                // check stopped it and a second look showed only the certificates.
                if facts.atsCovers, result.tls?.version == nil {
                    for index in result.appleClients.indices {
                        result.appleClients[index].warnings.append(AppleClientVerdicts.atsNotJudgedNote)
                    }
                }
            }
        }
    }

    /// The device the verdicts are for: a `--cacert` root stands for one installed on it.
    var deviceForVerdicts: AppleDevice {
        var device = settings.appleDevice
        if let caFile = settings.security.caFile, !device.installedRootFiles.contains(caFile) {
            device.installedRootFiles.insert(caFile, at: 0)
        }
        return device
    }

    /// The `Location` of an answer the call follows (``RedirectRules/followedStatuses``, with
    /// `-L`); `nil` for any other answer.
    static func redirectToFollow(_ response: CurlResponse, settings: ProbeSettings) -> String? {
        guard settings.followsRedirects, RedirectRules.followedStatuses.contains(response.statusCode) else { return nil }
        return response.heads.last?.value(for: "Location")
    }

    /// An error answer inside a tunnel whose certificate an interceptor made is the
    /// interceptor's own, not the target's, when its page fields say so (squid's
    /// `X-Squid-Error`), or for a 502, 503 or 504 of an interceptor that names itself in its
    /// issuer (mitmproxy's pages carry no such field: "Certificate verify failed: certificate
    /// has expired"). Its error code and page choose the words (``FailureReason/proxyOwnAnswer``).
    ///
    /// - Parameters:
    ///   - result: the call's result so far.
    ///   - request: the call.
    ///   - response: what it received.
    ///   - answer: the answer's error page fields that prove interception, read once by the caller.
    ///   - source: whose certificate the call saw.
    static func interceptorsOwnAnswer(
        _ result: ProbeResult, request: ProbeRequest, response: CurlResponse, answer fromFields: ProxyErrorAnswer?,
        source: CertificateSource
    ) -> FailureReason? {
        guard case .failed(let reason) = result.outcome, reason.code == .unexpectedStatus, reason.hop == .target,
            let status = result.httpStatus, ResponseCheck.ownAnswerStatuses.contains(status)
        else { return nil }
        let product = source.product ?? "the interceptor"
        let head = response.heads.last
        let answer: ProxyErrorAnswer
        if let fromFields {
            answer = fromFields
        } else if [502, 503, 504].contains(status), source.product != nil {
            answer = ProxyErrorAnswer(evidence: "the certificate's issuer names \(product)", body: response.body)
        } else {
            return nil
        }
        return .proxyOwnAnswer(
            status: ProxyAnswer.status(line: head?.statusLine, code: status), code: status, authority: request.authority,
            host: request.host, onConnect: false, answer: answer, interceptor: product)
    }

    /// `CURLINFO_HTTP_VERSION` values in words.
    static let httpVersions = [1: "1.0", 2: "1.1", 3: "2", 30: "3"]

    // MARK: - Options

    /// The libcurl options of one call (listed on the type).
    ///
    /// - Parameters:
    ///   - request: the call.
    ///   - route: its route.
    ///   - tunnel: whether it goes through CONNECT.
    /// - Returns: the options, in the order they are set.
    public func options(for request: ProbeRequest, route: ProxyRoute, tunnel: Bool) -> [EasyOption] {
        var options = route.curlOptions(authentication: settings.proxyAuthentication)
        options.append(.url(request.url.absoluteString))
        if route.server != nil && tunnel && !request.isHTTPS { options.append(.proxyTunnel(true)) }
        options += timeoutOptions(connect: settings.effectiveConnectTimeout, total: settings.effectiveMaxTime)
        switch request.method {
        case "GET" where request.body == nil: break
        case "HEAD": options.append(.noBody(true))
        default: options.append(.customRequest(request.method))
        }
        if let body = request.body, request.method != "HEAD" { options.append(.postFields(body)) }
        var lines = request.headers.map(\.line)
        if settings.omitsCurlDefaultFields {
            // A field written without a value removes libcurl's own (CURLOPT_HTTPHEADER).
            let given = Set(request.headers.map { $0.name.lowercased() })
            if !given.contains("accept") { lines.append("Accept:") }
            if request.body != nil, !given.contains("content-type") { lines.append("Content-Type:") }
        }
        if !lines.isEmpty { options.append(.httpHeaders(lines)) }
        options += commonOptions(for: request, route: route)
        let policy = settings.security
        if request.isHTTPS {
            options += [.verifyPeer(!policy.allowsInvalidCertificates), .verifyHost(policy.validatesDomainName)]
            if let caFile = policy.caFile { options.append(.caInfo(path: caFile)) }
            if !policy.pinnedPublicKeys.isEmpty {
                options.append(.pinnedPublicKey(policy.pinnedPublicKeys.map(\.text).joined(separator: ";")))
            }
            if let client = policy.clientCertificate {
                options.append(.clientCertificate(path: client.certificate))
                if let key = client.key { options.append(.clientKey(path: key)) }
            }
        }
        options.append(.verbose(true))
        return options
    }

    /// Options both the call and its second look use: `--resolve`, certificate info, the
    /// proxy's TLS settings.
    private func commonOptions(for request: ProbeRequest, route: ProxyRoute) -> [EasyOption] {
        var options: [EasyOption] = [.userAgent(settings.userAgent)]
        // Through a proxy that forwards (no tunnel), libcurl would turn CONNECT_TO into a tunnel to
        // that address: the mapping is for connections the probe makes to the target itself.
        if !settings.connectTo.isEmpty, route.server == nil || settings.tunnels(request, on: route) {
            options.append(.connectTo(settings.connectTo))
        }
        if route.server != nil, !settings.proxyHeaders.isEmpty {
            options.append(.proxyHeaders(settings.proxyHeaders.map(\.line)))
        }
        if !settings.resolve.isEmpty { options.append(.resolve(settings.resolve.map(\.description))) }
        if request.isHTTPS { options.append(.certInfo(true)) }
        let policy = settings.security
        if request.isHTTPS, policy.minimumTLSVersion != nil || policy.maximumTLSVersion != nil {
            options.append(.tlsVersions(minimum: policy.minimumTLSVersion ?? .tls1_0, maximum: policy.maximumTLSVersion))
        }
        if let version = settings.httpVersion { options.append(.httpVersion(version)) }
        if let codings = settings.acceptEncoding { options.append(.acceptEncoding(codings)) }
        if let family = settings.ipFamily { options.append(.ipFamily(family)) }
        if settings.keepsDotSegments { options.append(.pathAsIs(true)) }
        if route.server?.scheme == .https {
            if let proxyCAFile = policy.proxyCAFile { options.append(.proxyCAInfo(path: proxyCAFile)) }
            if policy.proxyInsecure { options += [.proxyVerifyPeer(false), .proxyVerifyHost(false)] }
        }
        return options
    }

    /// The limits of one transfer, each cut to the time the call has left (a later hop of a
    /// redirected call shares the call's `--max-time`).
    private func timeoutOptions(connect: Double, total: Double) -> [EasyOption] {
        let left = settings.remainingTime ?? total
        return [
            .connectTimeout(milliseconds: Int((min(connect, left) * 1000).rounded())),
            .timeout(milliseconds: Int((min(total, left) * 1000).rounded())),
        ]
    }

    /// Whose certificate the chain is: the issuer's word, or with `--compare-direct` through a
    /// proxy, what one direct handshake with the target shows. `nil` without a certificate.
    private func certificateSource(
        _ request: ProbeRequest, route: ProxyRoute, chain: [PeerCertificate],
        answeredInside: (evidence: String, product: String?)?, cancellation: ProbeCancellation,
        deadline: ContinuousClock.Instant
    ) -> CertificateSource? {
        guard let leaf = chain.first, let issuer = leaf.issuer else { return nil }
        var direct: DirectLook?
        if settings.comparesDirect, route.server != nil {
            direct =
                switch look(at: request.authority, cancellation: cancellation, deadline: deadline) {
                case nil where Self.secondsLeft(until: deadline) < Self.shortestLook: .outOfTime
                case nil: .unreachable
                case let seen? where seen.pem != nil && seen.pem == leaf.pem: .sameCertificate
                case let seen?:
                    .otherCertificate(subject: seen.subject ?? "an unknown subject", issuer: seen.issuer ?? "an unknown issuer")
                }
        }
        return InterceptionProducts.origin(
            issuer: issuer, subject: leaf.subject, throughProxy: route.server != nil, direct: direct,
            answeredInside: answeredInside)
    }

    // MARK: - Second look

    /// Fetches the target's certificate with verification off, to name what failed
    /// verification: a `HEAD` without the user's headers or URL credentials, bounded by the
    /// same connect limit, at most 5 seconds, and the call's deadline.
    ///
    /// - Returns: the target's chain, leaf first; empty when the look saw none.
    private func secondLook(
        _ request: ProbeRequest, route: ProxyRoute, tunnel: Bool, cancellation: ProbeCancellation,
        deadline: ContinuousClock.Instant
    ) -> [PeerCertificate] {
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        components?.user = nil
        components?.password = nil
        guard let url = components?.url else { return [] }
        var options = route.curlOptions(authentication: settings.proxyAuthentication)
        options.append(.url(url.absoluteString))
        if route.server != nil && tunnel && !request.isHTTPS { options.append(.proxyTunnel(true)) }
        options += commonOptions(for: request, route: route)
        return certificates(
            with: options, throughHTTPSProxy: route.server?.scheme == .https, cancellation: cancellation,
            deadline: deadline)
    }

    /// Fetches the certificate a server shows on a direct TLS handshake, verification off: an
    /// `https://` proxy's, to name what failed verification, or the target's own for
    /// `--compare-direct` (a `HEAD /` it may refuse), bounded as
    /// ``secondLook(_:route:tunnel:cancellation:)``.
    ///
    /// - Parameter authority: `host:port`, an IPv6 host in brackets.
    private func look(
        at authority: String, cancellation: ProbeCancellation, deadline: ContinuousClock.Instant
    ) -> PeerCertificate? {
        chain(at: authority, cancellation: cancellation, deadline: deadline).first
    }

    /// The chain a server shows on a direct TLS handshake, leaf first, verification off,
    /// bounded as ``look(at:cancellation:deadline:)``; the URLSession engine's look at an
    /// `https://` proxy, whose TLS FoundationNetworking does not tell from the target's.
    ///
    /// - Parameters:
    ///   - authority: `host:port`, an IPv6 host in brackets.
    ///   - cancellation: the run's switch.
    ///   - deadline: when the call's time ends.
    /// - Returns: the chain; empty when the handshake never began or no time is left.
    func chain(
        at authority: String, cancellation: ProbeCancellation, deadline: ContinuousClock.Instant
    ) -> [PeerCertificate] {
        var options = ProxyRoute.direct(.noProxyConfigured).curlOptions
        options += [.url("https://\(authority)/"), .certInfo(true)]
        if !settings.resolve.isEmpty { options.append(.resolve(settings.resolve.map(\.description))) }
        return certificates(with: options, throughHTTPSProxy: false, cancellation: cancellation, deadline: deadline)
    }

    /// The shortest look worth making, in seconds: with less left, none is made.
    static let shortestLook = 0.05

    /// The seconds from now to a deadline (negative once it passed).
    static func secondsLeft(until deadline: ContinuousClock.Instant) -> Double { (deadline - .now).inSeconds }

    /// The chain a `HEAD` with these options is shown, leaf first, verification off, within
    /// the connect limit, at most 5 seconds, and what is left until the call's deadline; empty
    /// when the handshake never began or no time is left. Through an `https://` proxy, only
    /// the target's (``CurlResponse/separatingProxyCertificates(httpsProxy:)``).
    private func certificates(
        with options: [EasyOption], throughHTTPSProxy: Bool, cancellation: ProbeCancellation,
        deadline: ContinuousClock.Instant
    ) -> [PeerCertificate] {
        let left = Self.secondsLeft(until: deadline)
        guard left >= Self.shortestLook else { return [] }
        var options = options
        options += [
            .connectTimeout(milliseconds: Int((min(settings.effectiveConnectTimeout, left) * 1000).rounded())),
            .timeout(milliseconds: Int((min(max(settings.effectiveConnectTimeout, 5), left) * 1000).rounded())),
        ]
        options += [.noBody(true), .verifyPeer(false), .verifyHost(false)]
        // Its log tells the target's certificates from the proxy's.
        if throughHTTPSProxy { options.append(.verbose(true)) }
        let response: CurlResponse? =
            switch Self.transfer(options, cancellation: cancellation) {
            case .success(let response): response
            case .failure(let error): error.partialResponse
            }
        return response?.separatingProxyCertificates(httpsProxy: throughHTTPSProxy).response.certificates ?? []
    }

    // MARK: - Helpers

    private static func transfer(
        _ options: [EasyOption], cancellation: ProbeCancellation, keepingBodyBytes: Int = 64 << 10
    ) -> Result<CurlResponse, CurlError> {
        Result { () throws(CurlError) -> CurlResponse in
            let handle = try EasyHandle()
            try handle.set(options)
            return try handle.perform(maxBodyBytes: keepingBodyBytes, cancellation: cancellation.transfers)
        }
    }

    static func timings(_ timings: TransferTimings) -> ProbeTimings {
        func reached(_ value: Double) -> Double? { value > 0 ? value : nil }
        return ProbeTimings(
            dns: reached(timings.nameLookup), connect: reached(timings.connect), tls: reached(timings.appConnect),
            firstByte: reached(timings.startTransfer), total: timings.total)
    }

    static func remoteAddress(_ response: CurlResponse) -> String? {
        guard let ip = response.primaryIP else { return nil }
        let host = HostPort.bracketed(ip)
        return response.primaryPort.map { "\(host):\($0)" } ?? host
    }
}
