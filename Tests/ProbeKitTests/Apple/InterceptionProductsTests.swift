import ProbeKit
import Testing

/// Each interception product of the table is recognised by the issuer its CA really writes.
@Suite struct InterceptionProductsTests {
    static let issuers: [(issuer: String, product: String)] = [
        ("CN = mitmproxy, O = mitmproxy", "mitmproxy"),
        ("CN = Charles Proxy CA (1 Dec 2026, host), OU = https://charlesproxy.com/ssl, O = XK72 Ltd", "Charles Proxy"),
        ("CN = Proxyman CA (1 Dec 2026, Mac), O = Proxyman Inc", "Proxyman"),
        ("CN = DO_NOT_TRUST_FiddlerRoot, O = DO_NOT_TRUST, OU = Created by http://www.fiddler2.com", "Fiddler"),
        ("CN = PortSwigger CA, OU = PortSwigger CA, O = PortSwigger", "Burp Suite"),
        ("CN = Zscaler Intermediate Root CA (zscaler.net), O = Zscaler Inc.", "Zscaler"),
        ("CN = ca.example.goskope.com, O = Netskope", "Netskope"),
        ("CN = Palo Alto Networks Forward Trust CA", "Palo Alto Networks"),
        ("CN = FortiGate CA, O = Fortinet", "Fortinet FortiGate"),
        ("CN = Cisco Umbrella Secondary SubCA ord-SG", "Cisco Umbrella"),
        ("CN = Blue Coat ProxySG CA", "Blue Coat ProxySG"),
        ("CN = Sophos SSL CA_C1234", "Sophos"),
        ("CN = HTTP Toolkit CA", "HTTP Toolkit"),
    ]

    @Test func everyProductIsNamedByItsIssuer() {
        #expect(Set(Self.issuers.map(\.product)) == Set(InterceptionProducts.table.map(\.product)))
        for (issuer, product) in Self.issuers {
            #expect(InterceptionProducts.product(inIssuer: issuer) == product, "\(issuer)")
        }
        #expect(InterceptionProducts.product(inIssuer: "CN = R11, O = Let's Encrypt, C = US") == nil)
    }

    @Test func theOriginNeedsAProxyInThePath() {
        #expect(InterceptionProducts.origin(issuer: "CN = mitmproxy", throughProxy: false).origin == .target)
        let intercepted = InterceptionProducts.origin(issuer: "CN = mitmproxy", throughProxy: true)
        #expect(intercepted.origin == .interceptor)
        #expect(intercepted.evidence.contains("re-signs TLS with its own CA"))
        #expect(InterceptionProducts.origin(issuer: "CN = Corp CA", throughProxy: true).origin == .unknown)
    }
}
