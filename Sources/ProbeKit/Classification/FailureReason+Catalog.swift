/// One factory per failure code: each keeps its message, hint and Apple error consistent.
///
/// `detail` parameters take libcurl's own words (its `CURLOPT_ERRORBUFFER` text), shown after
/// `curl:` so a reader can search for them.
extension FailureReason {
    /// What an Apple client sees when the proxy fails before the request reaches the target:
    /// `kCFErrorHTTPSProxyConnectionFailure` (310) for a tunnel (`https://` targets, or
    /// `--proxytunnel`), else `kCFErrorHTTPProxyConnectionFailure` (306) (CFNetworkErrors.h).
    static func proxyConnectionFailure(tunnel: Bool) -> AppleClientError {
        tunnel ? .httpsProxyConnectionFailure : .httpProxyConnectionFailure
    }

    private static func curlSays(_ detail: String) -> String {
        detail.isEmpty ? "" : " (curl: \(detail))"
    }

    // MARK: - Proxy

    /// `proxyNameNotResolved`: the proxy's host name did not resolve.
    ///
    /// - Parameters:
    ///   - proxyHost: the proxy's host name.
    ///   - source: the setting that named the proxy (`--proxy`, `https_proxy`, ...).
    ///   - tunnel: whether the call would have used CONNECT.
    ///   - detail: libcurl's message.
    /// - Returns: the reason.
    public static func proxyNameNotResolved(
        proxyHost: String, source: ProxySource, tunnel: Bool, detail: String
    )
        -> FailureReason
    {
        FailureReason(
            code: .proxyNameNotResolved, hop: .proxy,
            message: "the proxy's host name \(proxyHost) did not resolve\(curlSays(detail))",
            hint: "check the proxy's host name in \(source); --proxy \"\" goes direct",
            appleError: proxyConnectionFailure(tunnel: tunnel))
    }

    /// `proxyUnreachable`: the TCP connection to the proxy failed.
    ///
    /// - Parameters:
    ///   - proxyAddress: `host:port` of the proxy.
    ///   - source: the setting that named the proxy.
    ///   - tunnel: whether the call would have used CONNECT.
    ///   - detail: libcurl's message, e.g. `"Failed to connect to 127.0.0.1 port 9 ...: Connection refused"`.
    /// - Returns: the reason.
    public static func proxyUnreachable(
        proxyAddress: String, source: ProxySource, tunnel: Bool, detail: String
    )
        -> FailureReason
    {
        FailureReason(
            code: .proxyUnreachable, hop: .proxy,
            message: "could not connect to the proxy at \(proxyAddress)\(curlSays(detail))",
            hint: "check that a proxy listens on \(proxyAddress) (from \(source))",
            appleError: proxyConnectionFailure(tunnel: tunnel))
    }

    /// `proxyProtocolError`: the proxy answered CONNECT with bytes that are no HTTP answer (a
    /// SOCKS or TLS server, a body without a status line), so no tunnel was opened and the
    /// target was never reached (RFC 9110 section 9.3.6).
    ///
    /// - Parameters:
    ///   - proxyAddress: `host:port` of the proxy.
    ///   - detail: libcurl's message.
    /// - Returns: the reason.
    public static func proxyConnectAborted(proxyAddress: String, detail: String) -> FailureReason {
        FailureReason(
            code: .proxyProtocolError, hop: .proxy,
            message:
                "the proxy at \(proxyAddress) answered CONNECT with something that is not an HTTP answer, so no tunnel was "
                + "opened and the target was never reached (Proxy CONNECT aborted)\(curlSays(detail))",
            hint: "check that \(proxyAddress) is an HTTP proxy (not SOCKS; for a proxy that speaks TLS, write https://)",
            appleError: .httpsProxyConnectionFailure)
    }

    /// `timeout` of a forwarded request: the proxy took it and nothing came back in time. The
    /// probe cannot see past a forwarding proxy, and a proxy that accepted the connection and
    /// the request is the less likely one to be silent (squid answers 504 only after its own
    /// timeout), so the target comes first.
    ///
    /// - Parameters:
    ///   - limit: the option that ran out, e.g. `"--max-time"`.
    ///   - seconds: its value in seconds.
    ///   - proxyAddress: `host:port` of the proxy.
    ///   - authority: the target's `host:port`.
    /// - Returns: the reason.
    public static func forwardedTimeout(limit: String, seconds: Double, proxyAddress: String, authority: String) -> FailureReason
    {
        FailureReason(
            code: .timeout, hop: .target,
            message:
                "no answer through the proxy at \(proxyAddress) within the \(limit) of \(Seconds.text(seconds)) s (phase: "
                + "\(TimeoutPhase.firstByte.words)); the proxy took the request, so it may be waiting for \(authority)",
            hint:
                "check that \(authority) answers (the proxy forwarded the request; squid answers 504 only after its own "
                + "timeout), then that \(proxyAddress) forwards promptly; or raise \(limit)",
            appleError: .timedOut, timeoutPhase: .firstByte)
    }

    /// `proxyTimeout`: the proxy did not answer in time.
    ///
    /// - Parameters:
    ///   - phase: ``TimeoutPhase/proxyConnect``, ``TimeoutPhase/connectAnswer`` or
    ///     ``TimeoutPhase/firstByte`` (a forwarded request).
    ///   - limit: the option that ran out, e.g. `"--connect-timeout"`.
    ///   - seconds: its value in seconds.
    ///   - proxyAddress: `host:port` of the proxy.
    ///   - answerStarted: for ``TimeoutPhase/connectAnswer``, whether a status line arrived (the
    ///     header block then never ended).
    /// - Returns: the reason.
    public static func proxyTimeout(
        phase: TimeoutPhase, limit: String, seconds: Double, proxyAddress: String, answerStarted: Bool = false
    )
        -> FailureReason
    {
        let what: String
        switch phase {
        case .proxyConnect, .nameResolution: what = "could not connect to the proxy at \(proxyAddress)"
        case .connectAnswer where answerStarted:
            what =
                "the proxy at \(proxyAddress) began its answer to CONNECT but never ended its header block, so no tunnel was opened"
        case .connectAnswer: what = "the proxy at \(proxyAddress) accepted the connection but never answered CONNECT"
        case .tlsHandshake:
            return FailureReason(
                code: .proxyTimeout, hop: .proxy,
                message:
                    "the proxy at \(proxyAddress) accepted the connection but never finished the TLS handshake within the "
                    + "\(limit) of \(Seconds.text(seconds)) s (phase: \(phase.words))",
                hint: "a proxy that speaks plain HTTP waits for a request line: write http:// for it, not https://",
                appleError: .timedOut, timeoutPhase: phase)
        default: what = "the proxy at \(proxyAddress) accepted the request but sent no answer (it may be waiting for the target)"
        }
        return FailureReason(
            code: .proxyTimeout, hop: .proxy,
            message: "\(what) within the \(limit) of \(Seconds.text(seconds)) s (phase: \(phase.words))",
            hint: "check that \(proxyAddress) is a working HTTP proxy, or raise \(limit)",
            appleError: .timedOut, timeoutPhase: phase)
    }

    /// `proxyAuthenticationRequired`: the proxy answered 407 (RFC 9110 section 15.5.8).
    ///
    /// When the proxy offers no scheme the probe answered with (`NTLM` and `Negotiate` only,
    /// while the probe sends Basic), the credentials were never checked: the reason says so and
    /// names the flag for a scheme the proxy offers, instead of doubting the password.
    ///
    /// - Parameters:
    ///   - status: the status line without the version, e.g. `"407 Proxy Authentication Required"`.
    ///   - challenges: the proxy's `Proxy-Authenticate` field values (RFC 9110 section
    ///     11.7.1), in order.
    ///   - user: the user whose credentials were sent, as shown, or `nil` when none were.
    ///   - authentication: the scheme setting the probe answered with.
    ///   - onConnect: whether it answered CONNECT (else a forwarded request).
    ///   - source: the setting that named the proxy.
    ///   - chain: the proxy behind the configured one that asked, with the evidence
    ///     (``ProxyChainEvidence``): the credentials never reached it (`Proxy-Authorization` is
    ///     hop-by-hop, RFC 9110 section 11.7.2); `nil` when nothing shows a chain.
    /// - Returns: the reason.
    public static func proxyAuthenticationRequired(
        status: String, challenges: [String], user: String?, authentication: ProxyAuthentication, onConnect: Bool,
        source: ProxySource, chain: ProxyChainEvidence? = nil
    ) -> FailureReason {
        var message = "the proxy answered \(onConnect ? "CONNECT" : "the forwarded request") with \(status)"
        if !challenges.isEmpty { message += " and asks for \(challenges.joined(separator: ", "))" }
        let offered = ProxyAnswer.offeredSchemes(in: challenges)
        let usable = offered.filter { scheme in authentication.schemeNames.contains { $0.lowercased() == scheme.lowercased() } }
        let flag = offered.lazy.compactMap(ProxyAuthentication.answering).first?.flag
        let hint: String
        if !offered.isEmpty && usable.isEmpty {
            let sent = authentication.schemeNames.joined(separator: ", ")
            message +=
                user == nil
                ? "; no credentials were sent"
                : "; stagebuild probe answers with \(sent) (\(authentication.flag)), which it does not offer, so the credentials were not checked"
            hint =
                flag.map { "answer with a scheme it offers: \($0) (or --proxy-anyauth to let libcurl choose)" }
                ?? "it offers no scheme curl speaks; use a proxy account with Basic, or an authenticating local proxy (cntlm, px) in front of it"
        } else if let user, let chain {
            let asking = chain.asking
            message +=
                "; it came from \(asking), a proxy behind the one configured (\(chain.evidence)): the "
                + "credentials of user \"\(user)\" went to the first proxy only, which does not pass them on"
            hint =
                "make the first proxy pass the credentials on or give its own (squid: cache_peer ... login=PASSTHRU or "
                + "login=USER:PASSWORD; cntlm or px: the upstream account), or give \(asking) itself in \(source)"
        } else if let user {
            // One proxy's answer and a chain's look alike here (a relaying squid adds no Via to
            // the CONNECT answer it passes on): say what is known.
            message += "; the credentials of user \"\(user)\" were not accepted"
            hint =
                "check the user name and password given for \"\(user)\" in \(source); if this proxy forwards to another "
                + "one, that one may be asking: a forwarding proxy passes credentials on only when told to (squid: "
                + "cache_peer ... login=PASSTHRU)"
        } else {
            message += "; no credentials were sent"
            hint = "give credentials in \(source): http://USER:PASSWORD@HOST:PORT"
        }
        // A forwarded request's 407 reaches an Apple client as an HTTP response, not an error.
        return FailureReason(
            code: .proxyAuthenticationRequired, hop: .proxy, message: message, hint: hint,
            appleError: onConnect ? .httpsProxyConnectionFailure : nil)
    }

    /// `proxyForbidden`: the proxy refused (403 to CONNECT, or a 403 it made up itself).
    ///
    /// - Parameters:
    ///   - status: the status line without the version, e.g. `"403 Forbidden"`.
    ///   - authority: the target's `host:port`.
    ///   - onConnect: whether it answered CONNECT.
    ///   - evidence: why the answer is the proxy's own, e.g. `"X-Squid-Error: ERR_ACCESS_DENIED 0"`.
    /// - Returns: the reason.
    public static func proxyForbidden(
        status: String, authority: String, onConnect: Bool, evidence: String?
    )
        -> FailureReason
    {
        let what = onConnect ? "refused CONNECT to \(authority)" : "refused the request for \(authority) itself"
        return FailureReason(
            code: .proxyForbidden, hop: .proxy,
            message: "the proxy \(what) with \(status)\(evidence.map { " (\($0))" } ?? "")",
            hint:
                "the proxy's rules deny \(authority); ask its administrator to allow it, or bypass the proxy with --noproxy HOST when the target is reachable directly",
            appleError: onConnect ? .httpsProxyConnectionFailure : nil)
    }

    /// `proxyBadGateway`: the proxy could not reach the target (a `5xx` to CONNECT, or a
    /// `502`/`503`/`504` it made up itself).
    ///
    /// - Parameters:
    ///   - status: the status line without the version, e.g. `"502 Bad Gateway"`.
    ///   - authority: the target's `host:port`.
    ///   - onConnect: whether it answered CONNECT.
    ///   - evidence: why the answer is the proxy's own, e.g. `"X-Squid-Error: ERR_CONNECT_FAIL 111"`.
    /// - Returns: the reason.
    public static func proxyBadGateway(
        status: String, authority: String, onConnect: Bool, evidence: String?
    )
        -> FailureReason
    {
        let how = onConnect ? "it answered CONNECT with \(status)" : "its own answer was \(status)"
        return FailureReason(
            code: .proxyBadGateway, hop: .proxy,
            message: "the proxy could not reach \(authority): \(how)\(evidence.map { " (\($0))" } ?? "")",
            hint: "check that \(authority) is up and reachable from the proxy",
            appleError: onConnect ? .httpsProxyConnectionFailure : nil)
    }

    /// A non-2xx answer to CONNECT that names no more specific reason (e.g. 400 or 405):
    /// ``FailureCode/unexpectedStatus`` at the proxy.
    ///
    /// - Parameters:
    ///   - status: the status line without the version.
    ///   - authority: the target's `host:port`.
    /// - Returns: the reason.
    public static func connectRefused(status: String, authority: String) -> FailureReason {
        FailureReason(
            code: .unexpectedStatus, hop: .proxy,
            message: "the proxy answered CONNECT to \(authority) with \(status); the tunnel was not opened",
            hint: "check that the proxy allows CONNECT (RFC 9110 section 9.3.6) to this port",
            appleError: .httpsProxyConnectionFailure)
    }

    // MARK: - Target

    /// `targetNameNotResolved`: the target's host name did not resolve.
    ///
    /// - Parameters:
    ///   - host: the host name.
    ///   - detail: libcurl's message.
    /// - Returns: the reason.
    public static func targetNameNotResolved(host: String, detail: String) -> FailureReason {
        FailureReason(
            code: .targetNameNotResolved, hop: .target,
            message: "the host name \(host) did not resolve\(curlSays(detail))",
            hint: "check the host name, or give its address with --resolve \(host):PORT:ADDRESS",
            appleError: .cannotFindHost)
    }

    /// `connectFailed`: the TCP connection to the target failed.
    ///
    /// - Parameters:
    ///   - authority: the target's `host:port`.
    ///   - detail: libcurl's message.
    /// - Returns: the reason.
    public static func connectFailed(authority: String, detail: String) -> FailureReason {
        FailureReason(
            code: .connectFailed, hop: .target,
            message: "could not connect to \(authority)\(curlSays(detail))",
            hint: "check that a server listens on \(authority)", appleError: .cannotConnectToHost)
    }

    /// `noResponse`: the peer closed the connection, or sent something that is not HTTP,
    /// before any response. Apple's `badServerResponse`.
    ///
    /// - Parameters:
    ///   - hop: who closed: the proxy (a forwarded request) or the target.
    ///   - detail: libcurl's message, e.g. `"Empty reply from server"`.
    /// - Returns: the reason.
    public static func noResponse(hop: ProbeHop, detail: String) -> FailureReason {
        FailureReason(
            code: .noResponse, hop: hop,
            message: "no HTTP response from the \(hop)\(curlSays(detail))",
            hint: hop == .target ? "check that the port speaks HTTP (http://) or TLS (https://) as the URL says" : nil,
            appleError: .badServerResponse)
    }

    /// `noResponse` for an answer that broke off: its status and header arrived, its body ended
    /// before the length it announced (`CURLE_PARTIAL_FILE`). An app on Apple platforms gets
    /// -1005 `networkConnectionLost`.
    ///
    /// - Parameters:
    ///   - hop: the target (through a forwarding proxy too: its answer's head arrived).
    ///   - detail: libcurl's words.
    /// - Returns: the reason.
    public static func answerCutShort(hop: ProbeHop, detail: String) -> FailureReason {
        FailureReason(
            code: .noResponse, hop: hop,
            message: "the answer from the \(hop) broke off: its body ended before the length it announced\(curlSays(detail))",
            hint:
                "check the server's logs for an error while it sent the body (a crash, a time limit, a proxy's body size limit)",
            appleError: .networkConnectionLost)
    }

    /// `tlsHandshakeFailed`: TLS failed for a reason other than the certificate.
    ///
    /// - Parameters:
    ///   - hop: the proxy (an `https://` proxy) or the target.
    ///   - authority: the peer's `host:port`.
    ///   - detail: libcurl's (OpenSSL's) message.
    /// - Returns: the reason.
    public static func tlsHandshakeFailed(hop: ProbeHop, authority: String, detail: String) -> FailureReason {
        FailureReason(
            code: .tlsHandshakeFailed, hop: hop,
            message: "the TLS handshake with \(authority) failed\(curlSays(detail))",
            hint: "check that \(authority) speaks TLS and shares a TLS version and cipher with OpenSSL",
            appleError: .secureConnectionFailed)
    }

    /// `certificateNotTrusted`: the chain does not lead to a trusted CA.
    ///
    /// - Parameters:
    ///   - hop: the proxy (an `https://` proxy) or the target.
    ///   - problem: OpenSSL's words, e.g. `"self-signed certificate"` or `"unable to get local issuer certificate"`.
    ///   - issuer: the leaf's issuer, e.g. `"CN = Test CA"`, when known.
    ///   - certificateFrom: whose certificate it is: through a proxy it may be an interceptor's.
    /// - Returns: the reason.
    public static func certificateNotTrusted(
        hop: ProbeHop, problem: String, issuer: String?, certificateFrom: CertificateSource
    )
        -> FailureReason
    {
        var message = "\(hop == .proxy ? "the proxy's" : "the") certificate is not trusted: \(problem)"
        if let issuer { message += "; issued by \(issuer)" }
        var hint: String
        // OpenSSL's X509_V_ERR_INVALID_PURPOSE: the chain may well verify, but the leaf's
        // extendedKeyUsage lacks serverAuth (RFC 5280 section 4.2.1.12). Apple platforms refuse
        // such a certificate too (iOS 13, macOS 10.15: "Requirements for trusted certificates").
        if problem.contains("unsuitable certificate purpose") {
            message =
                "the certificate is not for TLS servers: its extendedKeyUsage lacks serverAuth (OpenSSL: \(problem))"
                + (issuer.map { "; issued by \($0)" } ?? "")
            hint =
                "issue the \(hop == .proxy ? "proxy's " : "")certificate with extendedKeyUsage serverAuth; "
                + (hop == .proxy ? "--proxy-insecure" : "--allow-invalid-certificates") + " accepts it unverified"
            return FailureReason(
                code: .certificateNotTrusted, hop: hop, message: message, hint: hint,
                appleError: trustFailure(.serverCertificateUntrusted, hop: hop))
        }
        // OpenSSL's X509_V_ERR_EE_KEY_TOO_SMALL, _CA_KEY_TOO_SMALL and _CA_MD_TOO_WEAK: the chain
        // may lead to a trusted CA, but a key or signature is below OpenSSL's security level
        // (Debian's default, level 2: RSA keys of 2048 bits or more, no SHA-1 signatures).
        if problem.contains("too weak") {
            message =
                "the \(hop == .proxy ? "proxy's " : "")certificate is too weak for OpenSSL's security level (Debian's "
                + "default, level 2, wants RSA keys of 2048 bits or more and no SHA-1 signatures): \(problem)"
                + (issuer.map { "; issued by \($0)" } ?? "")
            hint =
                "reissue the \(hop == .proxy ? "proxy's " : "")certificate with an RSA key of 2048 bits or more (or an EC "
                + "key), signed with SHA-256; "
                + (hop == .proxy ? "--proxy-insecure" : "--allow-invalid-certificates") + " accepts it unverified"
            return FailureReason(
                code: .certificateNotTrusted, hop: hop, message: message, hint: hint,
                appleError: trustFailure(.serverCertificateUntrusted, hop: hop))
        }
        if hop == .proxy {
            hint = "--proxy-cacert FILE with the CA that issued the proxy's certificate, or --proxy-insecure"
        } else {
            switch certificateFrom.origin {
            case .interceptor:
                hint =
                    "the certificate is \(certificateFrom.interceptor ?? "the proxy")'s, which re-signs TLS with its own CA: "
                    + "--cacert FILE with that CA (on a device: install it and turn on full trust), or "
                    + "--allow-invalid-certificates (the chain is then not verified)"
            case .unknown:
                hint =
                    "--cacert FILE with the CA that issued it, or --allow-invalid-certificates (the chain is then not verified); "
                    + "a proxy that intercepts TLS shows its own certificate: give its CA with --cacert"
            case .target:
                hint =
                    "--cacert FILE with the CA that issued it, or --allow-invalid-certificates (the chain is then not verified)"
            }
        }
        return FailureReason(
            code: .certificateNotTrusted, hop: hop, message: message, hint: hint,
            appleError: trustFailure(.serverCertificateUntrusted, hop: hop))
    }

    /// What an app sees for a target certificate its stack refuses: the code plain URLSession
    /// gets, and in the note the other stacks' (appleClients has each verdict). A proxy's own
    /// certificate gets no note: the stacks' trust evaluation is about the target's.
    ///
    /// - Parameters:
    ///   - error: URLSession's error for the failure.
    ///   - hop: Whose certificate failed.
    static func trustFailure(_ error: AppleClientError, hop: ProbeHop) -> AppleClientError {
        guard hop == .target else { return error }
        return error.noting(
            "URLSession's default handling; AFNetworking 3: -999 cancelled (it cancels the challenge); AFNetworking 4: "
                + "-1202; Alamofire 5 with a ServerTrustManager: AFError.serverTrustEvaluationFailed with the Security error "
                + "(appleClients gives each)")
    }

    /// `hostNameMismatch`: the certificate does not name the host asked for.
    ///
    /// - Parameters:
    ///   - hop: the proxy (an `https://` proxy) or the target.
    ///   - host: the name asked for.
    ///   - names: the names the certificate carries (subject alternative names, or the subject's
    ///     CN when it has none), e.g. `["localhost", "probe.test"]`.
    ///   - certificateFrom: whose certificate it is: through a proxy it may be an interceptor's.
    /// - Returns: the reason.
    public static func hostNameMismatch(
        hop: ProbeHop, host: String, names: [String], certificateFrom: CertificateSource
    )
        -> FailureReason
    {
        let whose = hop == .proxy ? "the proxy's certificate" : "the certificate"
        var message =
            names.isEmpty
            ? "\(whose) does not name \(host) (the name asked for)"
            : "\(whose) names \(names.joined(separator: ", ")), not \(host) (the name asked for)"
        // An IP address matches only an IP Address entry (RFC 6125 section 3.1.3.2 for
        // RFC 5280's iPAddress): the same text as a DNS name does not count.
        if names.contains(where: { $0.lowercased() == host.lowercased() }),
            IPAddress.v4(parsing: host) != nil || IPAddress.v6(parsing: host) != nil
        {
            message += "; it carries \(host) as a DNS name, and an IP address must be an IP Address entry of its subjectAltName"
        }
        if hop == .target {
            switch certificateFrom.origin {
            case .interceptor:
                message += "; this certificate is \(certificateFrom.interceptor ?? "the proxy")'s, which intercepts TLS"
            case .unknown: message += "; if the proxy intercepts TLS, this certificate is the proxy's"
            case .target: break
            }
        }
        var hint =
            hop == .proxy
            ? "use a proxy host name its certificate carries, or --proxy-insecure"
            : "--no-validate-domain-name (an app's validatesDomainName = false; the chain is still verified), or a certificate that names \(host)"
        if hop == .target, let interceptor = certificateFrom.interceptor {
            hint += " (the certificate is \(interceptor)'s: it must present one that names \(host))"
        }
        return FailureReason(
            code: .hostNameMismatch, hop: hop, message: message, hint: hint,
            appleError: trustFailure(.serverCertificateUntrusted, hop: hop))
    }

    /// `certificateExpired`.
    ///
    /// - Parameters:
    ///   - hop: the proxy or the target.
    ///   - notAfter: the end of validity as OpenSSL prints it, when known.
    /// - Returns: the reason.
    public static func certificateExpired(hop: ProbeHop, notAfter: String?) -> FailureReason {
        FailureReason(
            code: .certificateExpired, hop: hop,
            message: "\(hop == .proxy ? "the proxy's" : "the") certificate expired"
                + (notAfter.map { " (not after \($0))" } ?? ""),
            hint: "renew the certificate (or check this machine's clock); "
                + (hop == .proxy ? "--proxy-insecure skips the check" : "--allow-invalid-certificates skips the check"),
            appleError: trustFailure(.serverCertificateHasBadDate, hop: hop))
    }

    /// `certificateNotYetValid`.
    ///
    /// - Parameters:
    ///   - hop: the proxy or the target.
    ///   - notBefore: the start of validity as OpenSSL prints it, when known.
    /// - Returns: the reason.
    public static func certificateNotYetValid(hop: ProbeHop, notBefore: String?) -> FailureReason {
        FailureReason(
            code: .certificateNotYetValid, hop: hop,
            message: "\(hop == .proxy ? "the proxy's" : "the") certificate is not valid yet"
                + (notBefore.map { " (not before \($0))" } ?? ""),
            hint: "check this machine's clock; "
                + (hop == .proxy ? "--proxy-insecure skips the check" : "--allow-invalid-certificates skips the check"),
            appleError: trustFailure(.serverCertificateNotYetValid, hop: hop))
    }

    /// `pinnedKeyMismatch`: the server's public key is not pinned.
    ///
    /// - Parameters:
    ///   - serverKey: the server's key as `sha256//BASE64`, when libcurl logged it.
    ///   - pinnedCount: how many keys were pinned.
    /// - Returns: the reason.
    public static func pinnedKeyMismatch(serverKey: String?, pinnedCount: Int) -> FailureReason {
        let keys = pinnedCount == 1 ? "the pinned key" : "the \(pinnedCount) pinned keys"
        return FailureReason(
            code: .pinnedKeyMismatch, hop: .target,
            message:
                "the server's public key \(serverKey.map { "\($0) " } ?? "")is not \(pinnedCount == 1 ? "" : "among ")\(keys)",
            hint: serverKey.map { "if the new key is expected, pin it: --pinned-public-key \($0)" },
            appleError: AppleClientError.cancelled.noting(
                "AFNetworking 3 and TrustKit cancel the challenge; AFNetworking 4: -1202; Alamofire 5: "
                    + "AFError.serverTrustEvaluationFailed(.publicKeyPinningFailed) (appleClients gives each)"))
    }

    /// `timeout` at the target, in a phase.
    ///
    /// - Parameters:
    ///   - phase: the phase that ran out of time.
    ///   - limit: the option that ran out, e.g. `"--max-time"`.
    ///   - seconds: its value in seconds.
    ///   - authority: the target's `host:port`.
    /// - Returns: the reason.
    public static func timeout(phase: TimeoutPhase, limit: String, seconds: Double, authority: String) -> FailureReason {
        FailureReason(
            code: .timeout, hop: .target,
            message:
                "\(authority) did not finish in time: the \(limit) of \(Seconds.text(seconds)) s ran out (phase: \(phase.words))",
            hint: "raise \(limit) if \(authority) is just slow", appleError: .timedOut, timeoutPhase: phase)
    }

    /// `tooManyRedirects`: with `-L`, the redirects went on past `--max-redirs`.
    ///
    /// - Parameters:
    ///   - limit: the `--max-redirs` value.
    ///   - location: where the last redirect not followed pointed, redacted; `nil` when unknown.
    /// - Returns: the reason.
    public static func tooManyRedirects(limit: Int, location: String?) -> FailureReason {
        FailureReason(
            code: .tooManyRedirects, hop: .target,
            message: "the target redirected more than \(limit) time\(limit == 1 ? "" : "s") (--max-redirs \(limit))"
                + (location.map { "; the next one pointed to \($0)" } ?? ""),
            hint: "raise --max-redirs if the chain is expected; a chain that comes back to an earlier URL is a loop",
            appleError: .httpTooManyRedirects)
    }

    /// `redirectRefused`: with `-L`, a redirect the probe did not follow; nothing was sent to
    /// where it pointed.
    ///
    /// - Parameters:
    ///   - status: the redirect's status code.
    ///   - location: where it pointed, redacted.
    ///   - why: why it was not followed, e.g. `"it is not http:// or https://"`.
    ///   - hint: what would let it be followed, or `nil`.
    ///   - appleError: what an Apple client gets, or `nil` when one would follow it.
    /// - Returns: the reason.
    public static func redirectRefused(
        status: Int, location: String, why: String, hint: String?, appleError: AppleClientError?
    ) -> FailureReason {
        FailureReason(
            code: .redirectRefused, hop: .target,
            message: "the target answered \(status) to \(location), which was not followed: \(why)", hint: hint,
            appleError: appleError)
    }

    // MARK: - Response

    /// `unexpectedStatus`: the status is not among the expected ones.
    ///
    /// - Parameters:
    ///   - status: the status line without the version, e.g. `"404 Not Found"`.
    ///   - code: the status code.
    ///   - expected: the expected statuses.
    /// - Returns: the reason.
    public static func unexpectedStatus(status: String, code: Int, expected: StatusList) -> FailureReason {
        FailureReason(
            code: .unexpectedStatus, hop: .target, message: "the status \(status) is not among the expected \(expected)",
            hint: "--expect-status \(code) if this status is expected")
    }

    /// `expectationFailed`: a header or body expectation did not hold.
    ///
    /// - Parameter message: which one and what was found.
    /// - Returns: the reason.
    public static func expectationFailed(_ message: String) -> FailureReason {
        FailureReason(code: .expectationFailed, hop: .target, message: message)
    }

    /// `expectationFailed` decided by a pattern on a header or the body.
    ///
    /// - Parameter message: which pattern and what was found.
    /// - Returns: the reason, ``FailureReason/isPatternMismatch`` set.
    public static func patternMismatch(_ message: String) -> FailureReason {
        var reason = expectationFailed(message)
        reason.isPatternMismatch = true
        return reason
    }

    /// `requestNotPrepared`: the exporter could not prepare a module's request (a file it
    /// names unreadable, its OAuth 2.0 token not obtained, a target the probe cannot call),
    /// before the target was asked anything.
    ///
    /// - Parameters:
    ///   - message: What failed, in the module's words and without any secret.
    ///   - hint: What to change, e.g. the module key.
    /// - Returns: The reason.
    public static func requestNotPrepared(_ message: String, hint: String?) -> FailureReason {
        FailureReason(code: .requestNotPrepared, hop: .client, message: message, hint: hint)
    }

    /// `engineRefusedURL` from FoundationNetworking itself (`-1000 badURL`): nothing was
    /// connected to, so no hop is to blame. On Linux it refuses IPv6 literal hosts
    /// (`http://[::1]:8080/`), which libcurl and Apple platforms take.
    ///
    /// - Parameters:
    ///   - host: The request's host, without brackets.
    ///   - detail: FoundationNetworking's description.
    /// - Returns: The reason.
    public static func urlSessionRefusedURL(host: String, detail: String) -> FailureReason {
        let isIPv6Literal = host.contains(":")
        let note =
            isIPv6Literal
            ? "FoundationNetworking on Linux refuses IPv6 literal hosts; an app on Apple platforms connects normally (no error)"
            : "FoundationNetworking on Linux refused the URL before connecting"
        return FailureReason(
            code: .engineRefusedURL, hop: .client,
            message: isIPv6Literal
                ? "FoundationNetworking on Linux refused the URL itself (-1000 badURL) before connecting: it does not take IPv6 literal hosts such as [\(host)]"
                : "FoundationNetworking refused the URL itself (-1000 badURL) before connecting: \(detail)",
            hint: isIPv6Literal
                ? "use a host name that resolves to \(host) (urlsession refuses --resolve), or --engine curl"
                : "--engine curl, which takes what libcurl takes",
            appleError: AppleClientError.badURL.noting(note))
    }

    /// `engineRefusedURL` from the probe itself: a target that was checked before the run no
    /// longer parses when its call's turn comes (only a bug gets there).
    ///
    /// - Parameter detail: The parser's message.
    /// - Returns: The reason.
    public static func targetUnparsable(_ detail: String) -> FailureReason {
        FailureReason(code: .engineRefusedURL, hop: .client, message: detail)
    }

    /// `timeout` (or `proxyTimeout` through a proxy) from URLSession, which does not say in
    /// which phase it gave up.
    ///
    /// - Parameters:
    ///   - atProxy: Whether the call went through a proxy.
    ///   - limit: The `--max-time` in seconds, as text.
    /// - Returns: The reason.
    public static func urlSessionTimedOut(atProxy: Bool, limit: String) -> FailureReason {
        FailureReason(
            code: atProxy ? .proxyTimeout : .timeout, hop: atProxy ? .proxy : .target,
            message: "URLSession gave up after the --max-time of \(limit) s; it does not say in which phase",
            hint: "raise --max-time, or use --engine curl to see the phase", appleError: .timedOut)
    }

    /// `connectFailed` for a failure no more precise reason covers: the engine's own words.
    ///
    /// - Parameters:
    ///   - hop: The proxy (a forwarded request) or the target.
    ///   - detail: The engine's description, e.g. libcurl's error name and message.
    /// - Returns: The reason.
    public static func callFailed(hop: ProbeHop, detail: String) -> FailureReason {
        FailureReason(code: .connectFailed, hop: hop, message: "the call failed: \(detail)", appleError: .unknown)
    }

    /// `proxyUnreachable` for a proxy setting no call can use (its route could not be chosen).
    ///
    /// - Parameter detail: Why the setting is unusable.
    /// - Returns: The reason.
    public static func proxySettingUnusable(_ detail: String) -> FailureReason {
        FailureReason(code: .proxyUnreachable, hop: .proxy, message: detail, hint: "fix the proxy setting")
    }

    /// The PAC script gave no route (``FailureCode/pacFailed``).
    ///
    /// - Parameters:
    ///   - script: where the script came from, e.g. `"http://127.0.0.1:8080/proxy.pac"`.
    ///   - detail: what went wrong, e.g. `"the script used more than 5 s of processor time and was stopped"`.
    public static func pacFailed(script: String, detail: String) -> FailureReason {
        FailureReason(
            code: .pacFailed, hop: .client, message: "the PAC script \(script) gave no route: \(detail)",
            hint: "fix the PAC script; devices differ in what they do without one (docs/apple-clients.md, PAC)")
    }

    /// The PAC script could not be fetched or read (``FailureCode/pacFailed``): the exporter's
    /// `pac_url`, read for each probe.
    ///
    /// - Parameters:
    ///   - script: where the script was to come from, redacted.
    ///   - detail: why not, e.g. `"… answered HTTP 404, not 200 with a script"`.
    public static func pacUnavailable(script: String, detail: String) -> FailureReason {
        FailureReason(
            code: .pacFailed, hop: .client, message: "the PAC script \(script) could not be read: \(detail)",
            hint: "serve the script at that URL with 200, reachable directly (it is never fetched through a proxy)")
    }

    /// The PAC script chose a SOCKS proxy (``FailureCode/proxyNotProbed``).
    ///
    /// - Parameter entry: the entry, e.g. `"SOCKS5 socks.corp:1080"`.
    public static func proxyNotProbed(entry: PACEntry) -> FailureReason {
        FailureReason(
            code: .proxyNotProbed, hop: .proxy,
            message: "the PAC script chose \(entry), a SOCKS proxy, which stagebuild does not call through",
            hint: "check that proxy with curl --socks5-hostname, or put an HTTP proxy before it in the PAC's answer")
    }
}
