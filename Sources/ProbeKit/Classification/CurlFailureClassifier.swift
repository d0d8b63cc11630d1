import Curl
import Digests
import Foundation
import Serialization

/// Turns the end of a libcurl transfer into a failure reason, TLS facts and warnings.
///
/// The facts it reads, in order of trust:
/// - `CURLINFO_HTTP_CONNECTCODE`: a proxy's non-2xx answer to CONNECT. libcurl 7.88.1 reports
///   that as `CURLE_RECV_ERROR`, so the code is read before the `CURLcode`.
/// - the `CURLcode`: which step failed (`CURLE_COULDNT_RESOLVE_PROXY` vs `_HOST`, ...);
/// - `CURLINFO_SSL_VERIFYRESULT` and `CURLINFO_PROXY_SSL_VERIFYRESULT` (OpenSSL's `X509_V_*`):
///   expired (10), not yet valid (9), or not trusted;
/// - libcurl's and OpenSSL's words in the error buffer and the debug log: a host-name
///   mismatch ("does not match target host name"), the server's public key hash;
/// - the phase timers (`CURLINFO_*_TIME_T`) and libcurl's "Connected to" line: which phase a
///   timeout hit.
struct CurlFailureClassifier {
    var request: ProbeRequest
    var route: ProxyRoute
    var tunnel: Bool
    var settings: ProbeSettings
    /// Whose certificate the call saw for its target, once known.
    var certificateFrom: CertificateSource?

    /// `X509_V_ERR_CERT_NOT_YET_VALID` (OpenSSL x509_vfy.h).
    static let certificateNotYetValid = 9
    /// `X509_V_ERR_CERT_HAS_EXPIRED`.
    static let certificateHasExpired = 10

    private var proxySource: ProxySource {
        if case .proxy(_, let source) = route { return source }
        return .option("--proxy")
    }

    private var proxyAddress: String {
        guard let server = route.server else { return "" }
        return HostPort.joined(server.host, server.port)
    }

    /// ``certificateFrom``, or what the route alone tells.
    private var certificateSource: CertificateSource {
        certificateFrom ?? InterceptionProducts.origin(issuer: nil, throughProxy: route.server != nil)
    }

    private var responseCheck: ResponseCheck {
        ResponseCheck(request: request, route: route, tunnel: tunnel, authentication: settings.proxyAuthentication)
    }

    /// A 407 answered with Negotiate when no Negotiate token could be made: libcurl's GSS-API
    /// call failed (no Kerberos ticket), so no credentials were sent at all, and doubting the
    /// password would mislead.
    func explainingNegotiate(_ reason: FailureReason?, log: DebugLog) -> FailureReason? {
        guard var reason, reason.code == .proxyAuthenticationRequired,
            settings.proxyAuthentication == .negotiate || settings.proxyAuthentication == .any,
            let entry = log.entries.first(where: { $0.text.contains("gss_init_sec_context") })
        else { return reason }
        let words = entry.text.trimmingCharacters(in: .whitespacesAndNewlines)
        reason.message =
            "the proxy asks for Negotiate, but no Negotiate token could be made, so no credentials were sent "
            + "(libcurl: \(words))"
        reason.hint =
            "Negotiate needs a Kerberos ticket of the user running the probe (kinit USER@REALM, then klist); "
            + "or answer with another scheme the proxy offers, e.g. --proxy-ntlm"
        return reason
    }

    // MARK: - Completed transfers

    /// The failure of a transfer that completed, or `nil` when it met every expectation.
    func failure(of response: CurlResponse) -> FailureReason? {
        let head = response.heads.last
        return responseCheck.failure(
            status: response.statusCode, statusLine: head?.statusLine, fields: Self.fields(head),
            body: response.body, bodyByteCount: response.bodyByteCount)
    }

    // MARK: - Failed transfers

    /// Whether naming the reason needs the certificate that verification rejected: a chain
    /// failure at the target, where OpenSSL ended the handshake before libcurl could read it.
    func needsSecondLook(_ error: CurlError) -> Bool {
        let partial = error.partialResponse ?? CurlResponse()
        if tunnelledRefusal(partial) != nil { return partial.certificates.isEmpty }
        guard isVerificationFailure(error), !isAtProxyTLS(partial) else { return false }
        return !isNameMismatch(error.message) && partial.certificates.isEmpty
    }

    /// Whether naming the reason needs the `https://` proxy's certificate that verification
    /// rejected: libcurl reads certificate details of the target's connection only.
    func needsProxyLook(_ error: CurlError) -> Bool {
        isVerificationFailure(error) && isAtProxyTLS(error.partialResponse ?? CurlResponse())
    }

    /// The reason a transfer failed.
    ///
    /// - Parameters:
    ///   - error: libcurl's error with what it collected; its certificates the target's only
    ///     (``CurlResponse/separatingProxyCertificates(httpsProxy:)``).
    ///   - secondLook: the target's chain from a second look, leaf first; empty without one.
    ///   - proxyCertificate: the `https://` proxy's certificate from a look at it, if one was taken.
    func failure(of error: CurlError, secondLook: [PeerCertificate], proxyCertificate: PeerCertificate? = nil) -> FailureReason {
        let partial = error.partialResponse ?? CurlResponse()
        if route.server != nil, tunnel, partial.connectStatusCode >= 300 {
            let head = partial.heads.first { $0.statusCode == partial.connectStatusCode }
            return responseCheck.connectFailure(
                status: partial.connectStatusCode, statusLine: head?.statusLine, fields: Self.fields(head))
        }
        let detail = error.reason
        // Until the proxy's answer to CONNECT is complete, no byte reached the target: a read
        // or TLS failure then is the proxy's.
        if route.server != nil, tunnel, !partial.completedConnect, !isAtProxyTLS(partial),
            [.gotNothing, .recvError, .sendError, .weirdServerReply, .sslConnectError].contains(error.code)
        {
            return .proxyConnectAborted(proxyAddress: proxyAddress, detail: detail)
        }
        switch error.code {
        case .couldntResolveProxy:
            return .proxyNameNotResolved(
                proxyHost: route.server?.host ?? "", source: proxySource, tunnel: tunnel, detail: detail)
        case .couldntResolveHost:
            return .targetNameNotResolved(host: request.host, detail: detail)
        case .couldntConnect:
            if route.server != nil {
                return .proxyUnreachable(proxyAddress: proxyAddress, source: proxySource, tunnel: tunnel, detail: detail)
            }
            return .connectFailed(authority: request.authority, detail: detail)
        case .operationTimedOut:
            return timeout(partial)
        case .sslPinnedPublicKeyNotMatch:
            return .pinnedKeyMismatch(
                serverKey: Self.serverKeyHash(in: partial.debugLog), pinnedCount: settings.security.pinnedPublicKeys.count)
        case .proxy:
            return .proxyUnreachable(proxyAddress: proxyAddress, source: proxySource, tunnel: tunnel, detail: detail)
        case .partialFile:
            // A status and header arrived, through a proxy too: the target's answer broke off.
            return .answerCutShort(hop: .target, detail: detail)
        case .unsupportedProtocol where detail.contains("HTTP/0.9"):
            // Bytes that are no HTTP/1 status line: libcurl refuses to read them as HTTP/0.9.
            return .noResponse(hop: route.server != nil && !tunnel ? .proxy : .target, detail: detail)
        case .gotNothing, .recvError, .sendError, .weirdServerReply:
            if request.isHTTPS && partial.timings.appConnect == 0 && !isAtProxyTLS(partial) {
                return .tlsHandshakeFailed(hop: .target, authority: request.authority, detail: detail)
            }
            return .noResponse(hop: route.server != nil && !tunnel ? .proxy : .target, detail: detail)
        default:
            if let alert = tunnelledRefusal(partial) {
                return tunnelledCertificateRefusal(alert, chain: partial.certificates.isEmpty ? secondLook : partial.certificates)
            }
            if isVerificationFailure(error) {
                return verificationFailure(error, partial: partial, secondLook: secondLook, proxyCertificate: proxyCertificate)
            }
            if error.code == .sslConnectError || error.code == .sslCACertBadFile || error.code == .sslCertProblem {
                let atProxy = isAtProxyTLS(partial)
                var reason = FailureReason.tlsHandshakeFailed(
                    hop: atProxy ? .proxy : .target, authority: atProxy ? proxyAddress : request.authority, detail: detail)
                // OpenSSL's words for a TLS hello answered in plain HTTP.
                if atProxy, detail.contains("wrong version number") {
                    reason.message += "; the proxy answered in plain HTTP"
                    reason.hint = "the proxy at \(proxyAddress) speaks plain HTTP: write http:// for it, not https://"
                }
                return reason
            }
            return .callFailed(
                hop: route.server != nil && !tunnel ? .proxy : .target,
                detail: "\(error.code.description)\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }

    private func isVerificationFailure(_ error: CurlError) -> Bool {
        error.code == .peerFailedVerification || error.message.contains("SSL certificate problem")
            || isNameMismatch(error.message)
    }

    private func isNameMismatch(_ message: String) -> Bool {
        message.contains("does not match target host name") || message.contains("no alternative certificate subject name matches")
    }

    /// Whether the TLS in question is the one with an `https://` proxy: every TLS of a
    /// forwarded call, and a tunnel's until the proxy answered CONNECT.
    private func isAtProxyTLS(_ partial: CurlResponse) -> Bool {
        guard route.server?.scheme == .https else { return false }
        return !tunnel || partial.connectStatusCode == 0 || partial.proxyTLSVerifyResult != 0
    }

    private func verificationFailure(
        _ error: CurlError, partial: CurlResponse, secondLook: [PeerCertificate], proxyCertificate: PeerCertificate?
    )
        -> FailureReason
    {
        let atProxy = isAtProxyTLS(partial)
        let hop: ProbeHop = atProxy ? .proxy : .target
        let leaf = atProxy ? proxyCertificate : (partial.certificates.first ?? secondLook.first)
        if isNameMismatch(error.message) {
            let facts = Self.facts(of: leaf)
            let asked = Self.quotedName(in: error.message) ?? (atProxy ? route.server?.host ?? "" : request.host)
            return .hostNameMismatch(
                hop: hop, host: asked, names: facts.certificateNames,
                certificateFrom: certificateSource)
        }
        let verifyResult = atProxy ? partial.proxyTLSVerifyResult : partial.tlsVerifyResult
        let problem = Self.certificateProblem(in: error.message) ?? error.reason
        let reason: FailureReason
        if verifyResult == Self.certificateHasExpired || problem.contains("certificate has expired") {
            reason = .certificateExpired(hop: hop, notAfter: leaf?.notAfter)
        } else if verifyResult == Self.certificateNotYetValid || problem.contains("not yet valid") {
            reason = .certificateNotYetValid(hop: hop, notBefore: leaf?.notBefore)
        } else {
            reason = .certificateNotTrusted(
                hop: hop, problem: problem, issuer: leaf?.issuer,
                certificateFrom: certificateSource)
        }
        return atProxy ? reason : withNameProblem(reason, leaf: leaf)
    }

    /// The alert this client sent about the target's certificate inside an `https://` proxy's
    /// tunnel (``CurlResponse/tunnelledCertificateAlert``), when the call went through one.
    private func tunnelledRefusal(_ partial: CurlResponse) -> CertificateAlert? {
        guard route.server?.scheme == .https, tunnel, request.isHTTPS else { return nil }
        return partial.tunnelledCertificateAlert
    }

    /// The target's certificate refused inside an `https://` proxy's TLS. libcurl says only
    /// `SSL_ERROR_SYSCALL`; the chain the second look saw is checked here by OpenSSL against the
    /// same trust as the call's, which names what the call's check refused. Without a chain,
    /// the alert alone says what it can.
    ///
    /// - Parameters:
    ///   - alert: the alert this client sent.
    ///   - chain: the target's chain, leaf first; empty when no look could fetch it.
    private func tunnelledCertificateRefusal(_ alert: CertificateAlert, chain: [PeerCertificate]) -> FailureReason {
        let leaf = chain.first
        let pems = chain.compactMap(\.pem)
        let check =
            pems.isEmpty
            ? nil
            : CertificateChainCheck.check(
                certificates: pems, caFile: settings.security.caFile, host: request.host, now: Int(time(nil)),
                asTLSClient: true)
        let reason: FailureReason
        switch (check?.verifyError, alert) {
        case (Self.certificateHasExpired?, _), (nil, .certificateExpired):
            reason = .certificateExpired(hop: .target, notAfter: leaf?.notAfter)
        case (Self.certificateNotYetValid?, _):
            reason = .certificateNotYetValid(hop: .target, notBefore: leaf?.notBefore)
        case (let code?, _) where code != 0:
            reason = .certificateNotTrusted(
                hop: .target, problem: check?.problem ?? "", issuer: leaf?.issuer, certificateFrom: certificateSource)
        default:
            // The chain passes here but OpenSSL refused it in the call: say what the call said.
            reason = .certificateNotTrusted(
                hop: .target, problem: "OpenSSL refused it with the TLS alert \(alert.name)", issuer: leaf?.issuer,
                certificateFrom: certificateSource)
        }
        return withNameProblem(reason, leaf: leaf)
    }

    /// A chain failure at the target, with what OpenSSL did not get to check: whether the
    /// certificate names the host. When it does not, following the hint alone would only lead
    /// to a host name mismatch, so the reason says so at once.
    private func withNameProblem(_ reason: FailureReason, leaf: PeerCertificate?) -> FailureReason {
        let names = Self.facts(of: leaf).certificateNames
        guard settings.security.validatesDomainName, !names.isEmpty,
            !names.contains(where: { Self.name($0, covers: request.host) })
        else { return reason }
        var both = reason
        both.message += "; it does not name \(request.host) either (it names \(names.joined(separator: ", ")))"
        both.hint =
            (reason.hint.map { "\($0); " } ?? "")
            + "and for the name: a certificate for \(request.host), or --no-validate-domain-name (the name is then not verified)"
        return both
    }

    private func timeout(_ partial: CurlResponse) -> FailureReason {
        let timings = partial.timings
        let phase: TimeoutPhase
        let throughProxy = route.server != nil
        // libcurl 7.88.1 sets CURLINFO_CONNECT_TIME_T only once a proxy's tunnel is up; its
        // "Connected to" line tells that the TCP connection itself was made.
        let tcpConnected = timings.connect > 0 || partial.debugLog.contains("Connected to ")
        // libcurl logs "SSL connection using" once a handshake is done; with an https:// proxy
        // the first one is the proxy's.
        if throughProxy, route.server?.scheme == .https, tcpConnected, !partial.debugLog.contains("SSL connection using") {
            return .proxyTimeout(
                phase: .tlsHandshake, limit: "--connect-timeout", seconds: settings.effectiveConnectTimeout,
                proxyAddress: proxyAddress)
        }
        if !tcpConnected {
            phase =
                throughProxy
                ? .proxyConnect
                : (timings.nameLookup == 0 && IPAddress.v4(parsing: request.host) == nil
                    && IPAddress.v6(parsing: request.host) == nil ? .nameResolution : .targetConnect)
        } else if throughProxy && tunnel && !partial.completedConnect {
            phase = .connectAnswer
        } else if request.isHTTPS && timings.appConnect == 0 {
            phase = .tlsHandshake
        } else if timings.startTransfer == 0 {
            phase = .firstByte
        } else {
            phase = .body
        }
        let connectLimit = settings.effectiveConnectTimeout
        let maxTime = settings.effectiveMaxTime
        let (limit, seconds) =
            phase.isConnectPhase && connectLimit <= maxTime ? ("--connect-timeout", connectLimit) : ("--max-time", maxTime)
        if throughProxy && (phase == .proxyConnect || phase == .connectAnswer) {
            return .proxyTimeout(
                phase: phase, limit: limit, seconds: seconds, proxyAddress: proxyAddress,
                answerStarted: partial.connectStatusCode > 0)
        }
        if throughProxy && phase == .firstByte && !tunnel {
            return .forwardedTimeout(limit: limit, seconds: seconds, proxyAddress: proxyAddress, authority: request.authority)
        }
        return .timeout(phase: phase, limit: limit, seconds: seconds, authority: request.authority)
    }

    // MARK: - TLS facts and warnings

    /// The TLS facts of an `https://` target, or `nil` for `http://` or when TLS never began:
    /// through a proxy, not before the tunnel was open (a certificate libcurl saw then is an
    /// `https://` proxy's, ``proxyTLSFacts(response:reason:proxyCertificate:)``).
    func tlsFacts(response: CurlResponse, reason: FailureReason?, secondLook: PeerCertificate?) -> TLSFacts? {
        guard request.isHTTPS else { return nil }
        if route.server != nil, tunnel, !response.completedConnect { return nil }
        let policy = settings.security
        let leaf = response.certificates.first ?? secondLook
        var facts = Self.facts(of: leaf)
        facts.secondLook = response.certificates.isEmpty && secondLook != nil
        let handshakeDone = response.timings.appConnect > 0 || response.statusCode > 0
        // A session is recorded only once a handshake with the target finished.
        if let session = response.tlsSession {
            facts.version = session.version
            facts.cipher = session.cipher
            facts.alpn = session.alpn
        }
        switch reason?.hop == .target ? reason?.code.certificateCheck : nil {
        case .chain?:
            facts.chainVerified = false
        case .name?:
            facts.chainVerified = !policy.allowsInvalidCertificates
            facts.nameVerified = false
        case .pin?:
            facts.chainVerified = !policy.allowsInvalidCertificates
            facts.nameVerified = policy.validatesDomainName
        case nil:
            guard handshakeDone else { return leaf == nil ? nil : facts }
            facts.chainVerified = !policy.allowsInvalidCertificates
            facts.nameVerified = policy.validatesDomainName
        }
        return facts
    }

    /// The TLS facts of an `https://` proxy, or `nil` for an `http://` one or when its handshake
    /// never began. Its certificate is the one libcurl listed before the target's handshake
    /// finished, or from a look at the proxy when its verification failed; once the target's
    /// handshake finished, libcurl lists the target's only, and the proxy's is unknown.
    ///
    /// - Parameters:
    ///   - response: what the call collected.
    ///   - reason: the call's failure, if any.
    ///   - proxyCertificate: the proxy's certificate, if known.
    ///   - fromLook: whether it came from a look of its own, verification off.
    func proxyTLSFacts(
        response: CurlResponse, reason: FailureReason?, proxyCertificate: PeerCertificate?, fromLook: Bool
    ) -> TLSFacts? {
        guard route.server?.scheme == .https else { return nil }
        var facts = Self.facts(of: proxyCertificate)
        facts.secondLook = fromLook
        let verifies = !settings.security.proxyInsecure
        switch reason?.hop == .proxy ? reason?.code.certificateCheck : nil {
        case .chain?:
            facts.chainVerified = false
        case .name?:
            facts.chainVerified = verifies
            facts.nameVerified = false
        // A pin failure says nothing of the chain and the name, which were verified first.
        case .pin?, nil:
            // Anything the proxy answered came through the finished handshake.
            guard response.connectStatusCode > 0 || response.statusCode > 0 || response.completedConnect else {
                return proxyCertificate == nil ? nil : facts
            }
            facts.chainVerified = verifies
            facts.nameVerified = verifies
        }
        return facts
    }

    /// Warnings for a call whose TLS checks were partly switched off.
    func warnings(tls: TLSFacts?) -> [String] {
        var warnings: [String] = []
        let policy = settings.security
        if let tls, tls.nameVerified == false, !policy.validatesDomainName {
            var warning = "domain name not verified (--no-validate-domain-name)"
            let names = tls.certificateNames
            if !names.isEmpty, !names.contains(where: { Self.name($0, covers: request.host) }) {
                warning +=
                    ": the certificate names \(names.joined(separator: ", ")), not \(request.host); with domain-name validation on, this call fails with host name mismatch"
            }
            warnings.append(warning)
        }
        if let tls, tls.nameVerified == true, tls.subjectAlternativeNames.isEmpty, !tls.certificateNames.isEmpty {
            // RFC 6125 section 6.4.4 leaves the CN fallback to the client; Apple's TLS has
            // refused it since iOS 13 and macOS 10.15 ("Requirements for trusted certificates").
            warnings.append(
                "the certificate names \(request.host) only in its subject's CN, without a subjectAltName: curl accepts it, an app on Apple platforms (iOS 13, macOS 10.15 and later) rejects it"
            )
        }
        if let tls, tls.chainVerified == false, policy.allowsInvalidCertificates {
            warnings.append("certificate chain not verified (--allow-invalid-certificates)")
        }
        if route.server?.scheme == .https && policy.proxyInsecure {
            warnings.append("the proxy's certificate was not verified (--proxy-insecure)")
        }
        return warnings
    }

    // MARK: - Reading libcurl's words

    static func fields(_ head: ResponseHead?) -> [(name: String, value: String)] {
        head?.fields.map { (name: $0.name, value: $0.value) } ?? []
    }

    static func facts(of certificate: PeerCertificate?, now: Date = Date()) -> TLSFacts {
        guard let certificate else { return TLSFacts() }
        let notAfter = certificate.notAfter?.trimmingCharacters(in: CharacterSet(charactersIn: " "))
        var facts = TLSFacts(
            subject: certificate.subject?.trimmingCharacters(in: CharacterSet(charactersIn: " ")),
            subjectAlternativeNames: certificate.subjectAlternativeNames,
            issuer: certificate.issuer?.trimmingCharacters(in: CharacterSet(charactersIn: " ")), notAfter: notAfter)
        facts.notBefore = certificate.notBefore?.trimmingCharacters(in: CharacterSet(charactersIn: " "))
        if let end = notAfter.flatMap(Self.date(fromOpenSSL:)) {
            facts.daysUntilExpiry = Int((end.timeIntervalSince(now) / 86_400).rounded(.down))
        }
        return facts
    }

    /// A date as OpenSSL prints an ASN.1 time (`ASN1_TIME_print`): `"Jan  2 03:04:05 2026 GMT"`.
    /// Read by hand with timegm(3): every https call reads one, and a `DateFormatter` costs
    /// more to make than the call's whole classification.
    static func date(fromOpenSSL text: String) -> Date? {
        let words = text.split(separator: " ")
        let clock = words.count == 5 ? words[2].split(separator: ":").compactMap { Int32($0) } : []
        guard words.count == 5, words[4] == "GMT", let month = months.firstIndex(of: String(words[0])),
            let day = Int32(words[1]), let year = Int32(words[3]), clock.count == 3
        else { return nil }
        var time = tm()
        (time.tm_year, time.tm_mon, time.tm_mday) = (year - 1900, Int32(month), day)
        (time.tm_hour, time.tm_min, time.tm_sec) = (clock[0], clock[1], clock[2])
        return Date(timeIntervalSince1970: TimeInterval(timegm(&time)))
    }

    /// OpenSSL's month abbreviations, January first.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// OpenSSL's words after `"SSL certificate problem: "`, e.g. `"self-signed certificate"`.
    static func certificateProblem(in message: String) -> String? {
        guard let range = message.range(of: "SSL certificate problem: ") else { return nil }
        return String(message[range.upperBound...])
    }

    /// The host name libcurl compared, from `... target host name 'NAME'`.
    static func quotedName(in message: String) -> String? {
        guard let range = message.range(of: "target host name '") else { return nil }
        let rest = message[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// The server's public key hash libcurl logs while checking pins (`" public key hash: sha256//..."`).
    static func serverKeyHash(in log: DebugLog) -> String? {
        for entry in log.entries where entry.kind == .text {
            guard let range = entry.text.range(of: "public key hash: ") else { continue }
            let hash = entry.text[range.upperBound...].prefix { !$0.isWhitespace && $0 != "\r\n" }
            if hash.hasPrefix("sha256//") { return String(hash) }
        }
        return nil
    }

    /// Whether a certificate name covers a host: equal ignoring ASCII case, or a `*.` wildcard
    /// covering exactly one leftmost label (RFC 6125 section 6.4.3).
    static func name(_ name: String, covers host: String) -> Bool {
        let name = name.lowercased()
        let host = host.lowercased()
        if name == host { return true }
        guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
        return host[dot...] == name.dropFirst()
    }
}
