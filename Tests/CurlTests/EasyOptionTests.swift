import Curl
import Testing

/// Option names, secret-free descriptions, and `CURLcode` numbers.
@Suite struct EasyOptionTests {
    @Test func descriptionsNeverShowSecrets() {
        #expect(EasyOption.proxyPassword("s3cret").description == "CURLOPT_PROXYPASSWORD=***")
        #expect(EasyOption.proxy("http://user:s3cret@proxy:3128").description == "CURLOPT_PROXY=http://user:***@proxy:3128")
        #expect(EasyOption.url("https://a:b@host/p@th").description == "CURLOPT_URL=https://a:***@host/p@th")
        #expect(EasyOption.url("https://host/x").description == "CURLOPT_URL=https://host/x")
        let headers = EasyOption.httpHeaders(["Authorization: Bearer tok", "proxy-authorization: Basic eA==", "X: y"])
        #expect(headers.description == #"CURLOPT_HTTPHEADER=["Authorization: ***", "proxy-authorization: ***", "X: y"]"#)
    }

    @Test func namesFollowCurlOptions() {
        #expect(EasyOption.connectTimeout(milliseconds: 5).description == "CURLOPT_CONNECTTIMEOUT_MS=5")
        #expect(EasyOption.verifyHost(true).description == "CURLOPT_SSL_VERIFYHOST=1")
        #expect(EasyOption.proxyTunnel(true).name == "CURLOPT_HTTPPROXYTUNNEL")
        #expect(EasyOption.noProxy("").name == "CURLOPT_NOPROXY")
    }

    @Test(arguments: [
        (Int32(5), CurlCode.couldntResolveProxy), (6, .couldntResolveHost), (7, .couldntConnect),
        (28, .operationTimedOut), (35, .sslConnectError), (42, .abortedByCallback), (52, .gotNothing),
        (56, .recvError), (58, .sslCertProblem), (60, .peerFailedVerification), (90, .sslPinnedPublicKeyNotMatch),
        (97, .proxy), (22, .httpReturnedError), (9999, .other(9999)),
    ])
    func curlCodesRoundTrip(number: Int32, code: CurlCode) {
        #expect(CurlCode(rawValue: number) == code)
        #expect(code.rawValue == number)
    }

    @Test func codesCarryCurlsText() {
        #expect(CurlCode.couldntConnect.summary == "Couldn't connect to server")
        #expect(CurlCode.operationTimedOut.description == "CURLE 28 (Timeout was reached)")
        let error = CurlError(code: .couldntConnect, message: "Failed to connect", context: "perform")
        #expect(error.description == "perform: CURLE 7 (Couldn't connect to server): Failed to connect")
        #expect(CurlError(code: .gotNothing).reason == "Server returned nothing (no headers, no data)")
    }

    @Test func libraryIsTheSystemsLibcurl() {
        #expect(CurlLibrary.version.hasPrefix("7.") || CurlLibrary.version.hasPrefix("8."))
        #expect(CurlLibrary.tlsVersion?.hasPrefix("OpenSSL") == true)
    }
}
