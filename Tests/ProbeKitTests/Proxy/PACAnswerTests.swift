import Testing

@testable import ProbeKit

/// A PAC answer read as devices read it, and the failures a device leaves an entry on.
@Suite struct PACAnswerTests {
    @Test func entriesAreReadInOrderWithTheirDefaultPorts() {
        let answer = PACAnswer(
            parsing: " PROXY a.corp:3128;proxy b.corp ; HTTPS secure.corp; HTTP [::1]:8080; SOCKS5 s:1; DIRECT ;")
        #expect(
            answer.entries.map(\.description) == [
                "PROXY a.corp:3128", "PROXY b.corp:80", "HTTPS secure.corp:443", "HTTP [::1]:8080", "SOCKS5 s:1", "DIRECT",
            ])
        #expect(answer.unreadable.isEmpty)
        #expect(answer.entries[3].host == "::1" && answer.entries[3].port == 8080)
    }

    @Test func entriesNoDeviceCanReadAreSkippedAndNamed() {
        let answer = PACAnswer(parsing: "PROXY; DIRECT x:1; PROXY a:0; PROXY a:99999; PROXY a:b:c; FTP f:21; PROXY ok:1")
        #expect(answer.entries.map(\.description) == ["PROXY ok:1"])
        #expect(answer.unreadable == ["PROXY", "DIRECT x:1", "PROXY a:0", "PROXY a:99999", "PROXY a:b:c", "FTP f:21"])
        #expect(PACAnswer(parsing: "").entries.isEmpty && PACAnswer(parsing: "").unreadable.isEmpty)
    }

    @Test func eachEntryHasTheRouteItsKeywordMeans() {
        let answer = PACAnswer(parsing: "PROXY a:1; HTTPS b:2; DIRECT; SOCKS c:3")
        #expect(answer.entries[0].route?.server?.url == "http://a:1")
        #expect(answer.entries[1].route?.server?.url == "https://b:2")
        #expect(answer.entries[2].route == .direct(.pac(entry: "DIRECT")))
        #expect(answer.entries[3].route == nil)
        #expect(answer.entries[0].route?.description == "proxy http://a:1 (from the PAC's entry PROXY a:1)")
    }

    /// Chromium's `CanFalloverToNextProxy`: the proxy could not be reached or spoken to; a
    /// proxy that answered ends the list; DIRECT fails over on the target's connection.
    @Test func aDeviceLeavesAnEntryOnlyForTheFailuresBrowsersLeaveItFor() {
        let proxy = PACEntry(parsing: "PROXY a:1")!
        let direct = PACEntry(parsing: "DIRECT")!
        func reason(_ code: FailureCode, _ hop: ProbeHop, _ phase: TimeoutPhase? = nil) -> FailureReason {
            FailureReason(code: code, hop: hop, message: "m", timeoutPhase: phase)
        }
        for code in [FailureCode.proxyNameNotResolved, .proxyUnreachable, .proxyTimeout, .proxyProtocolError] {
            #expect(PACRouting.failsOver(reason(code, .proxy), entry: proxy), "\(code)")
        }
        for code in [FailureCode.proxyForbidden, .proxyAuthenticationRequired, .proxyBadGateway, .unexpectedStatus] {
            #expect(!PACRouting.failsOver(reason(code, .proxy), entry: proxy), "\(code)")
        }
        #expect(PACRouting.failsOver(reason(.certificateNotTrusted, .proxy), entry: proxy))
        #expect(!PACRouting.failsOver(reason(.certificateNotTrusted, .target), entry: proxy))
        #expect(PACRouting.failsOver(reason(.connectFailed, .target), entry: direct))
        #expect(!PACRouting.failsOver(reason(.connectFailed, .target), entry: proxy))
        #expect(PACRouting.failsOver(reason(.timeout, .target, .targetConnect), entry: direct))
        #expect(!PACRouting.failsOver(reason(.timeout, .target, .firstByte), entry: direct))
    }
}

/// WPAD's candidates: each search domain, then its parents down to two labels.
@Suite struct WPADDiscoveryTests {
    @Test func theLastSearchOrDomainLineOfResolvConfWins() {
        let text = "nameserver 10.0.0.1\ndomain old.example\nsearch Corp.Example. lab.corp.example\noptions ndots:2\n"
        #expect(WPADDiscovery.searchDomains(resolvConf: text) == ["corp.example", "lab.corp.example"])
        #expect(WPADDiscovery.searchDomains(resolvConf: "nameserver 1.1.1.1\n").isEmpty)
    }

    /// No parent domains: `wpad.co.uk` from `corp.example.co.uk` is anyone's to register.
    @Test func candidatesAreTheSearchDomainsOnlyEachOnce() {
        #expect(
            WPADDiscovery.candidates(searchDomains: ["a.b.corp.example", "corp.example.co.uk", "corp.example", "local"]) == [
                "http://wpad.a.b.corp.example/wpad.dat", "http://wpad.corp.example.co.uk/wpad.dat",
                "http://wpad.corp.example/wpad.dat",
            ])
        #expect(WPADDiscovery.isDomainName("corp-1.example") && !WPADDiscovery.isDomainName("bad domain!"))
        #expect(!WPADDiscovery.isDomainName("-a.example") && !WPADDiscovery.isDomainName("a..example"))
    }

    /// A script's answer may hold user info no device reads; reports never show its password.
    @Test func credentialsInAnAnswerAreRedactedWhereTheyStand() {
        #expect(
            PACAnswer.shown("PROXY alice:s3cret@p.corp:3128; PROXY token@q.corp:1;DIRECT; PROXY u : pw @r.corp:2")
                == "PROXY ***@p.corp:3128; PROXY ***@q.corp:1;DIRECT; PROXY ***@r.corp:2")
        let answer = PACAnswer(parsing: "PROXY alice:s3cret@p.corp:3128; DIRECT")
        #expect(answer.unreadable == ["PROXY alice:s3cret@p.corp:3128"] && answer.entries.map(\.description) == ["DIRECT"])
    }
}
