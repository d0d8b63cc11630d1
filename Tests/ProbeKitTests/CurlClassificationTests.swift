import Curl
import Foundation
import Testing

@testable import ProbeKit

/// The classifier fed with libcurl values as a transfer would produce them: no network.
@Suite struct CurlClassificationTests {
    private static let proxyRoute = ProxyRoute.proxy(
        ProxyServer(scheme: .http, host: "proxy.test", port: 3128), source: .option("--proxy"))
    private static let authProxyRoute = ProxyRoute.proxy(
        ProxyServer(
            scheme: .http, host: "proxy.test", port: 3128, credentials: ProxyCredentials(user: "alice", password: "hunter22")),
        source: .environment("https_proxy"))

    private func classifier(
        _ url: String, route: ProxyRoute = .direct(.noProxyConfigured), policy: SecurityPolicy = SecurityPolicy(),
        expectations: Expectations = .default
    ) throws -> CurlFailureClassifier {
        let request = try ProbeRequest(parsing: url, expectations: expectations)
        let settings = ProbeSettings(security: policy, connectTimeout: 2, maxTime: 5)
        return CurlFailureClassifier(
            request: request, route: route, tunnel: settings.tunnels(request, on: route), settings: settings)
    }

    private func error(
        _ code: CurlCode, _ message: String = "", connect: Int = 0, heads: [ResponseHead] = [],
        timings: TransferTimings = TransferTimings(),
        verify: Int = 0, certificates: [PeerCertificate] = [], log: [String] = []
    ) -> CurlError {
        CurlError(
            code: code, message: message,
            partialResponse: CurlResponse(
                connectStatusCode: connect, heads: heads, timings: timings, certificates: certificates, tlsVerifyResult: verify,
                debugLog: DebugLog(entries: log.map { DebugEntry(kind: .text, text: $0) })))
    }

    private static let leaf = PeerCertificate(fields: [
        HeaderField(name: "Subject", value: "CN = localhost"), HeaderField(name: "Issuer", value: "CN = Probe Test CA"),
        HeaderField(name: "Expire date", value: "Jan  2 00:00:00 2020 GMT"),
        HeaderField(name: "X509v3 Subject Alternative Name", value: "DNS:localhost, DNS:probe.test"),
    ])

    // MARK: - CONNECT answers

    @Test func connectAnswered407IsProxyAuthenticationRequiredWithTheChallenge() throws {
        let head = ResponseHead(
            statusLine: "HTTP/1.1 407 Proxy Authentication Required",
            fields: [HeaderField(name: "Proxy-Authenticate", value: "Basic realm=\"corp\"")])
        let reason = try classifier("https://api.test/", route: Self.proxyRoute)
            .failure(of: error(.recvError, "CONNECT tunnel failed, response 407", connect: 407, heads: [head]), secondLook: [])
        #expect(reason.code == .proxyAuthenticationRequired)
        #expect(reason.hop == .proxy)
        #expect(reason.message.contains("answered CONNECT with 407 Proxy Authentication Required"))
        #expect(reason.message.contains("Basic realm=\"corp\""))
        #expect(reason.hint == "give credentials in --proxy: http://USER:PASSWORD@HOST:PORT")
        #expect(reason.appleError == .httpsProxyConnectionFailure)
    }

    @Test func rejectedCredentialsNameTheUserButNeverThePassword() throws {
        let reason = try classifier("https://api.test/", route: Self.authProxyRoute)
            .failure(
                of: error(.recvError, connect: 407, heads: [ResponseHead(statusLine: "HTTP/1.1 407 Denied")]), secondLook: [])
        #expect(reason.message.contains("the credentials of user \"alice\" were not accepted"))
        #expect(reason.hint?.hasPrefix("check the user name and password given for \"alice\" in https_proxy;") == true)
        // One Via entry cannot tell a chain: the hint says where else the challenge may come from.
        #expect(reason.hint?.contains("if this proxy forwards to another one, that one may be asking") == true)
        #expect(!"\(reason)\(reason.hint ?? "")".contains("hunter22"))
    }

    @Test(arguments: [
        (403, FailureCode.proxyForbidden), (502, .proxyBadGateway), (503, .proxyBadGateway), (504, .proxyBadGateway),
        (500, .proxyBadGateway), (405, .unexpectedStatus),
    ])
    func connectAnswersNameTheProxysRefusal(status: Int, code: FailureCode) throws {
        let reason = try classifier("https://api.test:8443/", route: Self.proxyRoute)
            .failure(
                of: error(.recvError, connect: status, heads: [ResponseHead(statusLine: "HTTP/1.1 \(status) X")]), secondLook: []
            )
        #expect(reason.code == code)
        #expect(reason.hop == .proxy)
        #expect(reason.message.contains("api.test:8443"))
        #expect(reason.appleError == .httpsProxyConnectionFailure)
    }

    // MARK: - Names and connections

    @Test func unresolvableProxyIsProxyNameNotResolvedWithCFNetworkCodeByTunnel() throws {
        let https = try classifier("https://api.test/", route: Self.proxyRoute)
            .failure(of: error(.couldntResolveProxy, "Could not resolve proxy: proxy.test"), secondLook: [])
        #expect(https.code == .proxyNameNotResolved)
        #expect(https.message.contains("proxy.test"))
        #expect(https.appleError == .httpsProxyConnectionFailure)
        let http = try classifier("http://api.test/", route: Self.proxyRoute)
            .failure(of: error(.couldntResolveProxy), secondLook: [])
        #expect(http.appleError == .httpProxyConnectionFailure)
    }

    @Test func refusedConnectionIsTheProxyThroughAProxyAndTheTargetDirectly() throws {
        let viaProxy = try classifier("https://api.test/", route: Self.proxyRoute).failure(
            of: error(.couldntConnect), secondLook: [])
        #expect(viaProxy.code == .proxyUnreachable)
        #expect(viaProxy.message.contains("proxy.test:3128"))
        let direct = try classifier("https://api.test:8443/").failure(of: error(.couldntConnect), secondLook: [])
        #expect(direct.code == .connectFailed)
        #expect(direct.appleError == .cannotConnectToHost)
        #expect(direct.hint == "check that a server listens on api.test:8443")
    }

    @Test func unresolvableTargetIsCannotFindHost() throws {
        let reason = try classifier("https://nowhere.test/").failure(of: error(.couldntResolveHost), secondLook: [])
        #expect(reason.code == .targetNameNotResolved)
        #expect(reason.appleError?.description == "-1003 cannotFindHost")
    }

    // MARK: - Timeouts

    @Test(arguments: [
        ("https://api.test/", true, TransferTimings(), 0, FailureCode.proxyTimeout, TimeoutPhase.proxyConnect),
        ("https://api.test/", true, TransferTimings(nameLookup: 1, connect: 2), 0, .proxyTimeout, .connectAnswer),
        ("https://api.test/", true, TransferTimings(nameLookup: 1), 0, .proxyTimeout, .connectAnswer),
        ("https://api.test/", true, TransferTimings(nameLookup: 1, connect: 2), 200, .timeout, .tlsHandshake),
        // A status line without the end of the header block opens no tunnel: still the proxy's.
        ("https://api.test/", true, TransferTimings(nameLookup: 1, connect: 2), 201, .proxyTimeout, .connectAnswer),
        // A forwarded request the proxy took: the probe cannot see past it, the target comes first.
        ("http://api.test/", true, TransferTimings(nameLookup: 1, connect: 2, preTransfer: 2), 0, .timeout, .firstByte),
        ("https://api.test/", false, TransferTimings(), 0, .timeout, .nameResolution),
        ("https://127.0.0.1/", false, TransferTimings(), 0, .timeout, .targetConnect),
        ("https://api.test/", false, TransferTimings(nameLookup: 1, connect: 2, appConnect: 3), 0, .timeout, .firstByte),
        (
            "https://api.test/", false, TransferTimings(nameLookup: 1, connect: 2, appConnect: 3, startTransfer: 4), 0, .timeout,
            .body
        ),
    ])
    func timeoutsNameThePhaseFromLibcurlsTimers(
        url: String, throughProxy: Bool, timings: TransferTimings, connect: Int, code: FailureCode, phase: TimeoutPhase
    ) throws {
        // libcurl logs "Connected to" once TCP is up, also while the proxy's CONNECT answer is
        // pending, and "CONNECT phase completed" once that answer is whole (200 here; 201 stands
        // for a status line whose header block never ended).
        var log = timings.nameLookup > 0 ? ["Connected to proxy.test (10.0.0.3) port 3128 (#0)\n"] : []
        if connect == 200 { log.append("CONNECT phase completed\n") }
        let reason = try classifier(url, route: throughProxy ? Self.proxyRoute : .direct(.noProxyConfigured))
            .failure(of: error(.operationTimedOut, connect: connect, timings: timings, log: log), secondLook: [])
        #expect(reason.code == code)
        #expect(reason.timeoutPhase == phase)
        #expect(reason.message.contains(phase.words))
        #expect(reason.message.contains(phase.isConnectPhase ? "--connect-timeout of 2 s" : "--max-time of 5 s"))
        #expect(reason.appleError == .timedOut)
    }

    // MARK: - Certificates

    @Test func hostNameMismatchSaysBothNamesAndTheAppleCodes() throws {
        let classifier = try classifier("https://127.0.0.1:8443/")
        let failure = error(
            .peerFailedVerification, "SSL: no alternative certificate subject name matches target host name '127.0.0.1'",
            timings: TransferTimings(nameLookup: 1, connect: 2), certificates: [Self.leaf])
        #expect(!classifier.needsSecondLook(failure))
        let reason = classifier.failure(of: failure, secondLook: [])
        #expect(reason.code == .hostNameMismatch)
        #expect(reason.message == "the certificate names localhost, probe.test, not 127.0.0.1 (the name asked for)")
        #expect(reason.appleError?.code == -1202)
        #expect(reason.appleError?.name == "serverCertificateUntrusted")
        #expect(reason.appleError?.note?.contains("AFNetworking 3: -999 cancelled") == true)
        #expect(reason.appleError?.note?.contains("AFNetworking 4: -1202") == true)
        #expect(reason.hint?.hasPrefix("--no-validate-domain-name") == true)
        let tls = try #require(classifier.tlsFacts(response: failure.partialResponse!, reason: reason, secondLook: nil))
        #expect(tls.chainVerified == true)
        #expect(tls.nameVerified == false)
        #expect(tls.subjectAlternativeNames == ["DNS:localhost", "DNS:probe.test"])
    }

    @Test(arguments: [
        (10, "SSL certificate problem: certificate has expired", FailureCode.certificateExpired, -1201),
        (9, "SSL certificate problem: certificate is not yet valid", .certificateNotYetValid, -1204),
        (18, "SSL certificate problem: self-signed certificate", .certificateNotTrusted, -1202),
        (20, "SSL certificate problem: unable to get local issuer certificate", .certificateNotTrusted, -1202),
    ])
    func chainFailuresTakeASecondLookAndNameTheIssuer(verify: Int, message: String, code: FailureCode, appleCode: Int) throws {
        let classifier = try classifier("https://api.test/")
        let failure = error(.peerFailedVerification, message, verify: verify)
        #expect(classifier.needsSecondLook(failure))
        let reason = classifier.failure(of: failure, secondLook: [Self.leaf])
        #expect(reason.code == code)
        #expect(reason.appleError?.code == appleCode)
        if code == .certificateNotTrusted {
            #expect(reason.message.contains("issued by CN = Probe Test CA"))
            #expect(reason.hint?.contains("--cacert FILE") == true)
        }
        let tls = try #require(classifier.tlsFacts(response: failure.partialResponse!, reason: reason, secondLook: Self.leaf))
        #expect(tls.secondLook)
        #expect(tls.chainVerified == false)
        #expect(tls.issuer == "CN = Probe Test CA")
    }

    @Test func aChainFailureAlsoSaysWhenTheCertificateDoesNotNameTheHost() throws {
        let failure = error(.peerFailedVerification, "SSL certificate problem: self-signed certificate", verify: 18)
        let both = try classifier("https://api.test/").failure(of: failure, secondLook: [Self.leaf])
        #expect(both.code == .certificateNotTrusted)
        #expect(both.message.hasSuffix("; it does not name api.test either (it names localhost, probe.test)"))
        #expect(both.hint?.contains("--allow-invalid-certificates") == true)
        #expect(
            both.hint?.hasSuffix(
                "and for the name: a certificate for api.test, or --no-validate-domain-name (the name is then not verified)")
                == true)
        let named = try classifier("https://probe.test/").failure(of: failure, secondLook: [Self.leaf])
        #expect(!named.message.contains("either"))
        let unchecked = try classifier("https://api.test/", policy: SecurityPolicy(validatesDomainName: false))
            .failure(of: failure, secondLook: [Self.leaf])
        #expect(!unchecked.message.contains("either"), "the name is not checked: nothing more to say")
    }

    @Test func aNameOnlyInTheCommonNameIsAcceptedWithAWarningForAppleClients() throws {
        let classifier = try classifier("https://localhost/")
        let cnOnly = TLSFacts(chainVerified: true, nameVerified: true, subject: "CN = localhost")
        #expect(
            classifier.warnings(tls: cnOnly) == [
                "the certificate names localhost only in its subject's CN, without a subjectAltName: curl accepts it, an app on Apple platforms (iOS 13, macOS 10.15 and later) rejects it"
            ])
        let withSAN = TLSFacts(
            chainVerified: true, nameVerified: true, subject: "CN = localhost", subjectAlternativeNames: ["DNS:localhost"])
        #expect(classifier.warnings(tls: withSAN).isEmpty)
    }

    @Test func pinnedKeyMismatchQuotesTheServersKeyFromTheDebugLog() throws {
        let policy = SecurityPolicy(pinnedPublicKeys: [
            try PublicKeyPin(parsing: "sha256//" + String(repeating: "A", count: 43) + "=")
        ])
        let reason = try classifier("https://api.test/", policy: policy).failure(
            of: error(.sslPinnedPublicKeyNotMatch, log: [" public key hash: sha256//Zm9vYmFy\n"]), secondLook: [])
        #expect(reason.code == .pinnedKeyMismatch)
        #expect(reason.message == "the server's public key sha256//Zm9vYmFy is not the pinned key")
        #expect(reason.hint == "if the new key is expected, pin it: --pinned-public-key sha256//Zm9vYmFy")
        #expect(reason.appleError?.code == -999)
    }

    // MARK: - Forwarded answers

    private func forwarded(
        _ status: Int, _ fields: [HeaderField] = [], expectations: Expectations = .default, route: ProxyRoute = proxyRoute
    )
        throws -> FailureReason?
    {
        try classifier("http://api.test/", route: route, expectations: expectations).failure(
            of: CurlResponse(statusCode: status, heads: [ResponseHead(statusLine: "HTTP/1.1 \(status) Reason", fields: fields)]))
    }

    @Test func forwarded407IsTheProxysEvenWithoutAChallenge() throws {
        let reason = try #require(try forwarded(407, [HeaderField(name: "Proxy-Authenticate", value: "Basic realm=\"x\"")]))
        #expect(reason.code == .proxyAuthenticationRequired)
        #expect(reason.message.hasPrefix("the proxy answered the forwarded request with 407 Reason"))
        #expect(reason.appleError == nil, "an Apple client gets the 407 response itself")
    }

    @Test func forwarded403Or503IsTheProxysOnlyWithEvidence() throws {
        #expect(try forwarded(403)?.code == .unexpectedStatus)
        #expect(try forwarded(403, [HeaderField(name: "Via", value: "1.1 squid")])?.code == .unexpectedStatus)
        let squid = try forwarded(403, [HeaderField(name: "X-Squid-Error", value: "ERR_ACCESS_DENIED 0")])
        #expect(squid?.code == .proxyForbidden)
        #expect(squid?.message.contains("(X-Squid-Error: ERR_ACCESS_DENIED 0)") == true)
        #expect(try forwarded(503, [HeaderField(name: "Server", value: "squid/5.7")])?.code == .proxyBadGateway)
        #expect(try forwarded(502, [HeaderField(name: "Proxy-Status", value: "p; error=dns_error")])?.code == .proxyBadGateway)
        #expect(try forwarded(500, [HeaderField(name: "Server", value: "tinyproxy/1.11.1")])?.code == .proxyBadGateway)
        #expect(try forwarded(503, [HeaderField(name: "Server", value: "nginx")])?.code == .unexpectedStatus)
    }

    @Test func theOriginsOwn407DirectlyIsJustAnUnexpectedStatus() throws {
        #expect(try forwarded(407, route: .direct(.noProxyConfigured))?.code == .unexpectedStatus)
    }

    @Test func anExpectedStatusIsNeverTakenForAProxyRefusal() throws {
        let expectations = Expectations(statuses: try StatusList(parsing: "407"))
        #expect(try forwarded(407, expectations: expectations) == nil)
    }

    /// A body that ends before its announced length is an answer that broke off, at the target
    /// also through a forwarding proxy: the head arrived.
    @Test func anAnswerCutShortIsNotAConnectFailure() throws {
        let reason = try classifier("http://api.test/", route: Self.authProxyRoute)
            .failure(of: error(.partialFile, "transfer closed with 99900 bytes remaining to read"), secondLook: [])
        #expect(reason.code == .noResponse && reason.hop == .target)
        #expect(reason.message.hasPrefix("the answer from the target broke off"))
        #expect(reason.appleError?.code == -1005)
    }
}
