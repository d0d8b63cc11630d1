import Foundation
import PAC
import Testing

/// The PAC engine against scripts of each kind a corporate PAC file is, and each way one fails,
/// run by libpacparser itself.
@Suite struct PACEngineTests {
    let engine = PACEngine(processorTimeLimit: 2)

    @Test func returnsTheAnswerOfFindProxyForURL() throws {
        let script = """
            function FindProxyForURL(url, host) {
              if (isPlainHostName(host) || dnsDomainIs(host, ".intranet.test")) return "DIRECT";
              if (shExpMatch(url, "https://*.api.test/*")) return "HTTPS secure.test:443";
              return "PROXY a.test:3128; PROXY b.test:8080; DIRECT";
            }
            """
        #expect(try engine.findProxy(script: script, url: "http://wiki/", host: "wiki") == "DIRECT")
        #expect(try engine.findProxy(script: script, url: "http://x.intranet.test/", host: "x.intranet.test") == "DIRECT")
        #expect(
            try engine.findProxy(script: script, url: "https://v1.api.test/items", host: "v1.api.test")
                == "HTTPS secure.test:443")
        #expect(
            try engine.findProxy(script: script, url: "https://example.test/", host: "example.test")
                == "PROXY a.test:3128; PROXY b.test:8080; DIRECT")
    }

    @Test func isInNetSeesTheFixedAddressesBeforeTheSystemsResolver() throws {
        let script = """
            function FindProxyForURL(url, host) {
              if (isInNet(host, "10.20.0.0", "255.255.0.0")) return "DIRECT";
              if (isInNet(dnsResolve(host), "127.0.0.0", "255.0.0.0")) return "PROXY loopback.test:1";
              return "PROXY other.test:2";
            }
            """
        #expect(
            try engine.findProxy(
                script: script, url: "https://inside.corp.test/", host: "inside.corp.test",
                addresses: ["INSIDE.corp.test": ["fd00::1", "10.20.3.4"]]) == "DIRECT")
        // A name the table does not hold goes to the system's resolver (/etc/hosts has localhost).
        #expect(
            try engine.findProxy(
                script: script, url: "http://localhost/", host: "localhost", addresses: ["inside.corp.test": ["10.20.3.4"]])
                == "PROXY loopback.test:1")
        #expect(try engine.findProxy(script: script, url: "http://203.0.113.9/", host: "203.0.113.9") == "PROXY other.test:2")
    }

    @Test func dnsResolveExAnswersEveryFixedAddress() throws {
        let script = "function FindProxyForURL(url, host) { return 'PROXY x:1 ' + dnsResolveEx(host); }"
        #expect(
            try engine.findProxy(
                script: script, url: "http://a.test/", host: "a.test", addresses: ["a.test": ["fd00::1", "10.0.0.1"]])
                == "PROXY x:1 fd00::1;10.0.0.1")
    }

    @Test func myIpAddressIsTheAddressGiven() throws {
        let script = """
            function FindProxyForURL(url, host) {
              return isInNet(myIpAddress(), "192.168.50.0", "255.255.255.0") ? "PROXY office.test:3128" : "DIRECT";
            }
            """
        #expect(
            try engine.findProxy(script: script, url: "http://a.test/", host: "a.test", myAddress: "192.168.50.7")
                == "PROXY office.test:3128")
        #expect(try engine.findProxy(script: script, url: "http://a.test/", host: "a.test", myAddress: "10.0.0.7") == "DIRECT")
    }

    @Test func aScriptThatThrowsIsAScriptError() {
        let script = "function FindProxyForURL(url, host) { throw new Error('no route for ' + host); }"
        #expect {
            try engine.findProxy(script: script, url: "http://a.test/", host: "a.test")
        } throws: { error in
            guard case PACEngineError.scriptError(let words) = error else { return false }
            return words.contains("no route for a.test")
        }
    }

    @Test func aSyntaxErrorAndAMissingFunctionAreScriptErrors() {
        for script in ["function FindProxyForURL(url, host) { return 'DIRECT'", "var x = 1;"] {
            #expect(throws: PACEngineError.self) { try engine.findProxy(script: script, url: "http://a.test/", host: "a.test") }
            do {
                _ = try engine.findProxy(script: script, url: "http://a.test/", host: "a.test")
            } catch {
                guard case .scriptError(let words) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(!words.isEmpty)
            }
        }
    }

    @Test func aScriptThatLoopsIsStoppedAtItsProcessorTimeLimit() {
        let quick = PACEngine(processorTimeLimit: 1)
        let start = ContinuousClock.now
        #expect(throws: PACEngineError.processorTimeLimit(seconds: 1)) {
            try quick.findProxy(script: "function FindProxyForURL(u, h) { for (;;) {} }", url: "http://a.test/", host: "a.test")
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func theWaitEndsWhenTheCallsTimeIsUpOrTheCallerStops() {
        let looping = "function FindProxyForURL(u, h) { for (;;) {} }"
        #expect(throws: PACEngineError.noAnswer(within: 0.3)) {
            try engine.findProxy(script: looping, url: "http://a.test/", host: "a.test", within: 0.3)
        }
        let start = ContinuousClock.now
        #expect(throws: PACEngineError.stopped) {
            try engine.findProxy(script: looping, url: "http://a.test/", host: "a.test") {
                ContinuousClock.now - start > .milliseconds(200)
            }
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    /// A fast script is never taken for a looping one while loops keep every processor busy:
    /// the limit is the script's own processor time, and no child holds another's pipe open.
    @Test func fastScriptsAnswerWhileLoopingOnesRunBesideThem() async throws {
        let script = """
            function FindProxyForURL(url, host) {
              if (host == "loop.test") { for (;;) {} }
              return "DIRECT";
            }
            """
        let quick = PACEngine(processorTimeLimit: 1)
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<24 {
                let host = index % 4 == 0 ? "loop.test" : "fast.test"
                group.addTask { () throws -> String in
                    do {
                        return try quick.findProxy(script: script, url: "http://\(host)/", host: host, within: 20)
                    } catch {
                        let stopped = (error as? PACEngineError) == .processorTimeLimit(seconds: 1)
                        return host == "loop.test" && stopped ? "stopped" : "\(error)"
                    }
                }
            }
            var answers: [String: Int] = [:]
            for try await answer in group { answers[answer, default: 0] += 1 }
            #expect(answers == ["DIRECT": 18, "stopped": 6])
        }
    }

    @Test func aScriptThatAllocatesWithoutEndIsStoppedAtTheMemoryLimit() throws {
        let small = PACEngine(processorTimeLimit: 20, memoryLimit: 64 << 20)
        let script = """
            function FindProxyForURL(u, h) {
              var kept = [];
              for (var i = 0; i < 100000000; i++) kept.push("x" + i + "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy");
              return "DIRECT";
            }
            """
        #expect(throws: PACEngineError.memoryLimit(bytes: 64 << 20)) {
            try small.findProxy(script: script, url: "http://a.test/", host: "a.test")
        }
    }

    @Test func manyThreadsEvaluateAtOnce() async throws {
        let script = "function FindProxyForURL(url, host) { return 'PROXY ' + host + ':1'; }"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask { () throws -> Void in
                    let host = "h\(index).test"
                    let answer = try engine.findProxy(script: script, url: "http://\(host)/", host: host)
                    #expect(answer == "PROXY \(host):1")
                }
            }
            try await group.waitForAll()
        }
    }

    /// Ranges that wrap around, as Netscape's definition and today's browsers read them:
    /// libpacparser's own helpers are false on each of these.
    @Test func dateAndTimeRangesWrapAroundAsBrowsersHaveThem() throws {
        let now = Calendar.current.dateComponents([.weekday, .month, .hour], from: Date())
        let days = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        let today = try #require(now.weekday) - 1
        let month = try #require(now.month) - 1
        let hour = try #require(now.hour)
        func value(_ expression: String) throws -> String {
            try engine.findProxy(
                script: "function FindProxyForURL(url, host) { return String(\(expression)); }", url: "http://a.test/",
                host: "a.test")
        }
        // From tomorrow round to today: the whole week; from tomorrow to yesterday: all but today.
        #expect(try value("weekdayRange('\(days[(today + 1) % 7])', '\(days[today])')") == "true")
        #expect(try value("weekdayRange('\(days[(today + 1) % 7])', '\(days[(today + 6) % 7])')") == "false")
        #expect(try value("dateRange('\(months[(month + 1) % 12])', '\(months[month])')") == "true")
        #expect(try value("dateRange('\(months[(month + 1) % 12])', '\(months[(month + 11) % 12])')") == "false")
        #expect(try value("timeRange(\((hour + 1) % 24), 0, \(hour), 59)") == "true")
        #expect(try value("timeRange(\((hour + 1) % 24), 0, 0, \((hour + 23) % 24), 59, 59)") == "false")
        #expect(try value("typeof alert") == "function")
    }
}
