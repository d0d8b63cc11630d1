import Curl
import Foundation
import ProbeKit
import Testing

/// Real calls with the curl engine against the servers of ``LoopbackLab`` on 127.0.0.1:
/// an origin, TLS origins with each test certificate, two forward proxies, a silent listener.
@Suite struct LoopbackProbeTests {
    private var lab: LoopbackLab { get throws { try LoopbackLab.shared.get() } }
    private var pki: TestPKI { get throws { try TestPKI.shared.get() } }

    // MARK: - Direct

    @Test func plainHTTPSucceedsWithTimingsAndRemoteAddress() throws {
        let lab = try lab
        let (result, _) = try probe(lab.origin("/hello"), settings: try settings())
        #expect(result.outcome == .succeeded)
        #expect(result.httpStatus == 200)
        #expect(result.routeKind == "direct")
        #expect(result.remoteAddress == "127.0.0.1:\(lab.http)")
        let timings = try #require(result.timings)
        #expect(timings.connect != nil && timings.firstByte != nil && timings.tls == nil)
        #expect(timings.total >= timings.firstByte ?? 0)
        #expect(result.tls == nil)
    }

    @Test func expectationsOfStatusHeaderAndBody() throws {
        let lab = try lab
        let json = try Expectations(
            headers: [HeaderExpectation(parsing: "Content-Type=application/json")], body: BodyPattern("\"status\":\\s*\"ok\""))
        #expect(try probe(lab.origin("/json"), expectations: json, settings: try settings()).result.outcome == .succeeded)
        let wrongHeader = try probe(lab.origin("/hello"), expectations: json, settings: try settings()).result
        #expect(wrongHeader.code == .expectationFailed)
        #expect(wrongHeader.reasonMessage == "the header Content-Type is \"text/plain\", not \"application/json\"")
        let notFound = try probe(lab.origin("/status/404"), settings: try settings()).result
        #expect(notFound.code == .unexpectedStatus)
        #expect(notFound.httpStatus == 404)
        let expected = Expectations(statuses: try StatusList(parsing: "404"))
        #expect(
            try probe(lab.origin("/status/404"), expectations: expected, settings: try settings()).result.outcome == .succeeded)
        let head = try probe(lab.origin("/hello"), method: "HEAD", settings: try settings()).result
        #expect(head.outcome == .succeeded)
        #expect(try probe(lab.origin("/hello"), method: "DELETE", settings: try settings()).result.httpStatus == 200)
    }

    @Test func closedPortIsConnectFailed() throws {
        let result = try probe("http://127.0.0.1:\(try lab.closed)/", settings: try settings()).result
        #expect(result.code == .connectFailed)
        #expect(result.outcome.failureReason?.appleError?.code == -1004)
    }

    @Test func peerThatClosesBeforeAnyAnswerIsNoResponse() throws {
        let result = try probe("http://127.0.0.1:\(try lab.hangUp)/", settings: try settings()).result
        #expect(result.code == .noResponse)
        #expect(result.outcome.failureReason?.hop == .target)
        #expect(result.outcome.failureReason?.appleError?.code == -1011)
    }

    @Test func silentPeerTimesOutWaitingForTheFirstByteWithinItsLimit() throws {
        let (result, elapsed) = try probe("http://127.0.0.1:\(try lab.silent)/", settings: try settings(maxTime: 0.5))
        #expect(result.code == .timeout)
        #expect(result.outcome.failureReason?.timeoutPhase == .firstByte)
        #expect(result.reasonMessage.contains("the --max-time of 0.5 s"))
        #expect(elapsed < .seconds(2))
    }

    // MARK: - TLS

    @Test func trustedCertificateSucceedsWithTLSFacts() throws {
        let result = try probe(try lab.secure("good"), settings: try settings()).result
        #expect(result.outcome == .succeeded)
        let tls = try #require(result.tls)
        #expect(tls.chainVerified == true && tls.nameVerified == true && !tls.secondLook)
        #expect(tls.subject == "CN = localhost")
        #expect(tls.issuer == "CN = Probe Test CA")
        #expect(tls.subjectAlternativeNames == ["DNS:localhost", "IP Address:127.0.0.1"])
        #expect(tls.notAfter?.hasSuffix("GMT") == true)
        #expect(result.timings?.tls != nil)
        #expect(result.warnings.isEmpty)
    }

    /// `CURLOPT_SSLVERSION` bounds the handshake: the test origin speaks TLS 1.2 and 1.3.
    @Test func tlsVersionBoundsChooseTheHandshakesVersion() throws {
        var capped = SecurityPolicy()
        capped.maximumTLSVersion = .tls1_2
        #expect(try probe(try lab.secure("good"), settings: try settings(policy: capped)).result.tls?.version == "TLSv1.2")
        var floor = SecurityPolicy()
        floor.minimumTLSVersion = .tls1_3
        #expect(try probe(try lab.secure("good"), settings: try settings(policy: floor)).result.tls?.version == "TLSv1.3")
        var impossible = SecurityPolicy()
        (impossible.minimumTLSVersion, impossible.maximumTLSVersion) = (.tls1_0, .tls1_1)
        #expect(try probe(try lab.secure("good"), settings: try settings(policy: impossible)).result.outcome != .succeeded)
    }

    /// The module settings the exporter reads reach libcurl as its options.
    @Test func transportSettingsBecomeTheirCurlOptions() throws {
        var settings = try settings()
        settings.httpVersion = .http1_1
        settings.acceptEncoding = "gzip"
        settings.ipFamily = .ipv4
        settings.security.clientCertificate = ("/c.pem", "/k.pem")
        let request = try ProbeRequest(parsing: try lab.secure("good"))
        let options = CurlProbeEngine(settings: settings).options(for: request, route: .direct(.noProxyConfigured), tunnel: false)
        for option in [
            EasyOption.httpVersion(.http1_1), .acceptEncoding("gzip"), .ipFamily(.ipv4), .clientCertificate(path: "/c.pem"),
            .clientKey(path: "/k.pem"),
        ] {
            #expect(options.contains(option), "\(option)")
        }
        #expect(!options.contains { if case .tlsVersions = $0 { true } else { false } })
    }

    @Test func certificateForAnotherNameIsHostNameMismatchNamingBoth() throws {
        let result = try probe(try lab.secure("other"), settings: try settings()).result
        #expect(result.code == .hostNameMismatch)
        #expect(result.reasonMessage == "the certificate names other.test, not 127.0.0.1 (the name asked for)")
        #expect(result.outcome.failureReason?.appleError?.description == "-1202 serverCertificateUntrusted")
        #expect(result.tls?.chainVerified == true)
        #expect(result.tls?.nameVerified == false)
        #expect(result.tls?.subject == "CN = other.test")
    }

    @Test func noValidateDomainNameSucceedsButWarns() throws {
        let result = try probe(
            try lab.secure("other"), settings: try settings(policy: SecurityPolicy(validatesDomainName: false))
        ).result
        #expect(result.outcome == .succeeded)
        #expect(result.tls?.nameVerified == false)
        #expect(result.tls?.chainVerified == true)
        #expect(
            result.warnings == [
                "domain name not verified (--no-validate-domain-name): the certificate names other.test, not 127.0.0.1; with domain-name validation on, this call fails with host name mismatch"
            ])
    }

    @Test func expiredCertificateIsNamedFromASecondLook() throws {
        let result = try probe(try lab.secure("expired"), settings: try settings()).result
        #expect(result.code == .certificateExpired)
        #expect(result.reasonMessage == "the certificate expired (not after Jan  2 00:00:00 2020 GMT)")
        #expect(result.outcome.failureReason?.appleError?.code == -1201)
        #expect(result.tls?.secondLook == true)
        #expect(result.tls?.chainVerified == false)
    }

    @Test func notYetValidCertificate() throws {
        let result = try probe(try lab.secure("notyet"), settings: try settings()).result
        #expect(result.code == .certificateNotYetValid)
        #expect(result.outcome.failureReason?.appleError?.code == -1204)
    }

    @Test func selfSignedIsNotTrustedUntilItsCAIsGivenOrChecksAreOff() throws {
        let lab = try lab
        let untrusted = try probe(lab.secure("selfsigned"), settings: try settings()).result
        #expect(untrusted.code == .certificateNotTrusted)
        #expect(untrusted.reasonMessage == "the certificate is not trusted: self-signed certificate; issued by CN = localhost")
        #expect(untrusted.tls?.secondLook == true)
        #expect(untrusted.tls?.issuer == "CN = localhost")

        let withItsCA = SecurityPolicy(caFile: try pki.certificatePath("selfsigned"))
        #expect(try probe(lab.secure("selfsigned"), settings: try settings(policy: withItsCA)).result.outcome == .succeeded)

        let anyChain = try probe(
            lab.secure("selfsigned"), settings: try settings(policy: SecurityPolicy(allowsInvalidCertificates: true))
        )
        .result
        #expect(anyChain.outcome == .succeeded)
        #expect(anyChain.tls?.chainVerified == false)
        #expect(anyChain.warnings == ["certificate chain not verified (--allow-invalid-certificates)"])
    }

    @Test func pinnedKeyMatchesOrNamesTheServersKey() throws {
        let lab = try lab
        let pki = try pki
        let good = SecurityPolicy(pinnedPublicKeys: [try PublicKeyPin(parsing: try pki.pin("good"))])
        #expect(try probe(lab.secure("good"), settings: try settings(policy: good)).result.outcome == .succeeded)
        let other = SecurityPolicy(pinnedPublicKeys: [try PublicKeyPin(parsing: try pki.pin("other"))])
        let result = try probe(lab.secure("good"), settings: try settings(policy: other)).result
        #expect(result.code == .pinnedKeyMismatch)
        #expect(result.reasonMessage == "the server's public key \(try pki.pin("good")) is not the pinned key")
        #expect(result.outcome.failureReason?.appleError?.code == -999)
        // The handshake finished before the key was refused: what it agreed on is known.
        #expect(result.tls?.version?.hasPrefix("TLSv1.") == true, "\(String(describing: result.tls))")
        #expect(result.tls?.cipher != nil)
        let tunnelled = try probe(
            lab.secure("good"), settings: try settings(proxy: "http://127.0.0.1:\(lab.proxy)", policy: other)
        ).result
        #expect(tunnelled.code == .pinnedKeyMismatch)
        #expect(tunnelled.tls?.version?.hasPrefix("TLSv1.") == true)
    }

    // MARK: - Through a proxy

    @Test func plainHTTPIsForwardedAndHTTPSTunnelled() throws {
        let lab = try lab
        let viaProxy = try settings(proxy: "http://127.0.0.1:\(lab.proxy)")
        let forwarded = try probe(lab.origin("/hello"), settings: viaProxy).result
        #expect(forwarded.outcome == .succeeded)
        #expect(forwarded.routeKind == "proxy")
        #expect(forwarded.connectStatus == nil)
        #expect(forwarded.remoteAddress == "127.0.0.1:\(lab.proxy)")
        let tunnelled = try probe(lab.secure("good"), settings: viaProxy).result
        #expect(tunnelled.outcome == .succeeded)
        #expect(tunnelled.connectStatus == 200)
        #expect(tunnelled.tls?.nameVerified == true)
        let forcedTunnel = try probe(
            lab.origin("/hello"), settings: try settings(proxy: "http://127.0.0.1:\(lab.proxy)", forcesTunnel: true)
        ).result
        #expect(forcedTunnel.connectStatus == 200)
        #expect(forcedTunnel.outcome == .succeeded)
    }

    @Test func noProxyEntrySendsTheCallAroundTheProxy() throws {
        let lab = try lab
        let result = try probe(
            lab.origin("/hello"),
            settings: try settings(proxy: "http://127.0.0.1:\(lab.closed)", noProxy: "localhost,127.0.0.0/8")
        ).result
        #expect(result.outcome == .succeeded)
        #expect(result.noProxyMatch?.entry == "127.0.0.0/8")
    }

    @Test func authenticatingProxyWantsCredentialsOnConnectAndForwarded() throws {
        let lab = try lab
        let anonymous = try settings(proxy: "http://127.0.0.1:\(lab.authProxy)")
        for url in [lab.secure("good"), lab.origin("/hello")] {
            let result = try probe(url, settings: anonymous).result
            #expect(result.code == .proxyAuthenticationRequired, "\(url)")
            #expect(result.outcome.failureReason?.hop == .proxy)
            #expect(result.reasonMessage.contains("Basic realm=\"probe-test\""))
            #expect(result.outcome.failureReason?.hint == "give credentials in --proxy: http://USER:PASSWORD@HOST:PORT")
        }
        let tunnelled = try probe(lab.secure("good"), settings: anonymous).result
        #expect(tunnelled.connectStatus == 407)
        #expect(tunnelled.httpStatus == nil)
        let withCredentials = try settings(proxy: "http://\(LoopbackLab.user):\(LoopbackLab.password)@127.0.0.1:\(lab.authProxy)")
        #expect(try probe(lab.secure("good"), settings: withCredentials).result.outcome == .succeeded)
        #expect(try probe(lab.origin("/hello"), settings: withCredentials).result.outcome == .succeeded)
    }

    @Test func theOriginsOwn403ThroughTheProxyIsNotTheProxys() throws {
        let lab = try lab
        let result = try probe(lab.origin("/status/403"), settings: try settings(proxy: "http://127.0.0.1:\(lab.proxy)")).result
        #expect(result.code == .unexpectedStatus)
        #expect(result.outcome.failureReason?.hop == .target)
    }

    @Test func proxyRefusalsAndUnreachableTargets() throws {
        let lab = try lab
        let viaProxy = try settings(proxy: "http://127.0.0.1:\(lab.proxy)")
        let forbidden = try probe("https://127.0.0.1:9/", settings: viaProxy).result
        #expect(forbidden.code == .proxyForbidden)
        #expect(forbidden.connectStatus == 403)
        let tunnelToNowhere = try probe("https://127.0.0.1:\(lab.closed)/", settings: viaProxy).result
        #expect(tunnelToNowhere.code == .proxyBadGateway)
        let forwardToNowhere = try probe("http://127.0.0.1:\(lab.closed)/", settings: viaProxy).result
        #expect(forwardToNowhere.code == .proxyBadGateway)
        #expect(forwardToNowhere.reasonMessage.contains("Proxy-Status: testproxy; error=destination_unavailable"))
    }

    @Test func unreachableAndUnresolvableProxies() throws {
        let lab = try lab
        let closed = try probe(lab.secure("good"), settings: try settings(proxy: "http://127.0.0.1:\(lab.closed)")).result
        #expect(closed.code == .proxyUnreachable)
        let unresolvable = try probe(lab.secure("good"), settings: try settings(proxy: "http://\(unresolvableHost):3128")).result
        #expect(unresolvable.code == .proxyNameNotResolved)
        #expect(unresolvable.outcome.failureReason?.appleError?.name == "kCFErrorHTTPSProxyConnectionFailure")
    }

    @Test func proxyThatAcceptsAndNeverAnswersTimesOutInItsPhase() throws {
        let lab = try lab
        let silentProxy = try settings(proxy: "http://127.0.0.1:\(lab.silent)", connectTimeout: 0.5, maxTime: 0.8)
        let (tunnel, tunnelTime) = try probe(lab.secure("good"), settings: silentProxy)
        #expect(tunnel.code == .proxyTimeout)
        #expect(tunnel.outcome.failureReason?.timeoutPhase == .connectAnswer)
        #expect(tunnel.reasonMessage.contains("never answered CONNECT within the --connect-timeout of 0.5 s"))
        #expect(tunnelTime < .seconds(2))
        let (forwarded, forwardTime) = try probe(lab.origin("/hello"), settings: silentProxy)
        // Forwarded, the silence may be the target's behind the proxy: never "not a working proxy".
        #expect(forwarded.code == .timeout)
        #expect(forwarded.outcome.failureReason?.hop == .target)
        #expect(forwarded.outcome.failureReason?.timeoutPhase == .firstByte)
        #expect(forwarded.reasonMessage.contains("the proxy took the request, so it may be waiting for"))
        #expect(forwarded.outcome.failureReason?.hint?.contains("is a working HTTP proxy") == false)
        #expect(forwardTime < .seconds(2))
    }

    @Test func httpsProxyIsVerifiedWithItsOwnCAOrNotAtAll() throws {
        let lab = try lab
        let pki = try pki
        let proxy = "https://127.0.0.1:\(lab.tlsProxy)"
        let untrusted = try probe(lab.secure("good"), settings: try settings(proxy: proxy)).result
        #expect(untrusted.code == .certificateNotTrusted)
        #expect(untrusted.outcome.failureReason?.hop == .proxy)
        #expect(untrusted.outcome.failureReason?.hint?.hasPrefix("--proxy-cacert FILE") == true)
        let trusted = try probe(
            lab.secure("good"), settings: try settings(proxy: proxy, policy: SecurityPolicy(proxyCAFile: pki.caPath)))
        #expect(trusted.result.outcome == .succeeded)
        #expect(trusted.result.connectStatus == 200)
        let insecure = try probe(
            lab.origin("/hello"), settings: try settings(proxy: proxy, policy: SecurityPolicy(proxyInsecure: true)))
        #expect(insecure.result.outcome == .succeeded)
        #expect(insecure.result.warnings == ["the proxy's certificate was not verified (--proxy-insecure)"])
    }

    @Test func hostNameMismatchThroughTheProxyIsTheStoryOfMinus999() throws {
        let lab = try lab
        let viaProxy = try settings(proxy: "http://127.0.0.1:\(lab.proxy)")
        let result = try probe(lab.secure("other"), settings: viaProxy).result
        #expect(result.code == .hostNameMismatch)
        #expect(result.connectStatus == 200)
        #expect(result.reasonMessage.contains("if the proxy intercepts TLS, this certificate is the proxy's"))
        let report = ReportFormat.text.render([result])
        #expect(
            report.contains(
                "urlError   -1202 serverCertificateUntrusted; URLSession's default handling; AFNetworking 3: -999 cancelled"))
        #expect(report.contains("             AFNetworking 3 fails, -999 cancelled"))
        #expect(report.contains("hint       --no-validate-domain-name"))
    }
}
