import ProbeKit
import Testing

/// curl 7.88.1's no-proxy matching (`lib/noproxy.c`), case by case. The cases follow the
/// behaviours that curl's unit test 1614 checks, restated with other names, plus the rules its
/// documentation states and the two IPv6 fixes of later curl.
@Suite struct NoProxyListTests {
    /// A host, a list, and the entry that should match (`nil`: none).
    struct Case: CustomTestStringConvertible, Sendable {
        let host: String
        let list: String
        let match: String?
        init(_ host: String, _ list: String, _ match: String?) {
            self.host = host
            self.list = list
            self.match = match
        }
        var testDescription: String { "\(host) in \"\(list)\" → \(match ?? "no match")" }
    }

    @Test(arguments: [
        // Exact names and domain suffixes at a dot boundary; leading dot of an entry ignored.
        Case("probe.test", "probe.test", "probe.test"),
        Case("api.probe.test", "probe.test", "probe.test"),
        Case("api.probe.test", ".probe.test", ".probe.test"),
        Case("probe.test", ".probe.test", ".probe.test"),
        Case("deep.api.probe.test", "probe.test", "probe.test"),
        Case("notprobe.test", "probe.test", nil),
        Case("notprobe.test", ".probe.test", nil),
        Case("probe.test", "api.probe.test", nil),
        Case("probe.testing", "probe.test", nil),
        Case("api.probe.test", "other.test, .probe.org", nil),
        Case("x", "x", "x"),
        Case("x", "y", nil),
        // Trailing dots: one is ignored on the host and on the entry.
        Case("api.probe.test.", "intranet,.probe.test,.probe.org", ".probe.test"),
        Case("probe.test.", "probe.test", "probe.test"),
        Case("api.probe.test", "intranet,.probe.test.,.probe.org", ".probe.test."),
        Case("api.probe.test", "api.probe.test.", "api.probe.test."),
        Case("probe.test", ".", nil),
        // Case-insensitive (ASCII).
        Case("API.Probe.TEST", "probe.test", "probe.test"),
        Case("localhost", "LOCALHOST", "LOCALHOST"),
        // Separators: commas, runs of commas, blanks around entries, blanks alone.
        Case("b.test", "a.test,,,,   b.test", "b.test"),
        Case("b.test", "a.test , b.test ,", "b.test"),
        Case("b.test", "a.test b.test", "b.test"),
        Case("b.test", "a.test\tb.test", "b.test"),
        Case("b.test", ",,, b.test", "b.test"),
        // The whole-list wildcard, and only the whole list.
        Case("anything.test", "*", "*"),
        Case("10.1.2.3", "*", "*"),
        Case("[::1]", "*", "*"),
        Case("anything.test", " *", nil),
        Case("anything.test", "*,other", nil),
        Case("anything.test", "*.test", nil),
        // Empty lists and hosts.
        Case("probe.test", "", nil),
        Case("", "probe.test", nil),
        Case("", "*", nil),
        // Entries with ports are compared as names and never match.
        Case("localhost", "localhost:8080", nil),
        Case("127.0.0.1", "127.0.0.1:8080", nil),
    ])
    func matchesHostNames(_ item: Case) {
        #expect(NoProxyList(item.list).entryMatching(host: item.host) == item.match)
    }

    @Test(arguments: [
        Case("127.0.0.1", "127.0.0.1,localhost", "127.0.0.1"),
        Case("127.0.0.1", "localhost,127.0.0.1,", "127.0.0.1"),
        Case("127.0.0.1", "127.0.0.1/8", "127.0.0.1/8"),
        Case("127.0.0.1", "127.0.0.0/8", "127.0.0.0/8"),
        Case("127.200.3.4", "127.0.0.0/8", "127.0.0.0/8"),
        Case("128.0.0.1", "127.0.0.0/8", nil),
        Case("10.20.30.40", "10.0.0.0/8", "10.0.0.0/8"),
        Case("172.31.255.255", "172.16.0.0/12", "172.16.0.0/12"),
        Case("172.32.0.1", "172.16.0.0/12", nil),
        Case("192.168.7.1", "192.168.0.0/16", "192.168.0.0/16"),
        Case("192.168.7.1", "192.168.7.0/24", "192.168.7.0/24"),
        Case("192.168.8.1", "192.168.7.0/24", nil),
        Case("192.168.7.1", "192.168.7.0/31", "192.168.7.0/31"),
        Case("192.168.7.2", "192.168.7.0/31", nil),
        Case("192.168.7.1", "192.168.7.0/32", nil),
        Case("192.168.7.1", "192.168.7.1/32", "192.168.7.1/32"),
        Case("192.168.7.1", "192.168.7.0", nil),
        Case("192.168.7.1", "192.168.7.1", "192.168.7.1"),
        Case("192.168.7.9", "192.168.7.8/29", "192.168.7.8/29"),
        Case("192.168.7.16", "192.168.7.8/29", nil),
        // /0 is "this exact address" in curl 7.88.1, not "every address".
        Case("192.168.7.1", "0.0.0.0/0", nil),
        Case("192.168.7.1", "192.168.7.1/0", "192.168.7.1/0"),
        // Prefix lengths read like atoi; out of range or negative never match.
        Case("10.9.9.9", "10.0.0.0/8x", "10.0.0.0/8x"),
        Case("10.0.0.0", "10.0.0.0/", "10.0.0.0/"),
        Case("10.9.9.9", "10.0.0.0/33", nil),
        Case("10.0.0.0", "10.0.0.0/-1", nil),
        Case("10.9.9.9", "10.0.0.0/+8", "10.0.0.0/+8"),
        // Names never match addresses, nor the other way round.
        Case("192.168.7.1", "localhost", nil),
        Case("localhost", "127.0.0.1", nil),
        Case("192.168.0.1", "foo, bar, 192.168.0.0/16", "192.168.0.0/16"),
        Case("192.168.1.1", "foo, bar, 192.168.0.0/24", nil),
        // A host with a trailing dot is a name, not an address.
        Case("127.0.0.2.", "127.0.0.0/8", nil),
        // inet_pton's dotted quad only: no short or octal forms.
        Case("10.1", "10.0.0.0/8", nil),
        // An entry of 128 characters or more never matches an address.
        Case("127.0.0.1", "localhost," + String(repeating: "127.0.0.1.", count: 13), nil),
    ])
    func matchesIPv4AddressesAndCIDR(_ item: Case) {
        #expect(NoProxyList(item.list).entryMatching(host: item.host) == item.match)
    }

    @Test(arguments: [
        Case("[::1]", "::1", "::1"),
        Case("::1", "::1", "::1"),
        Case("[::1]", "::1/128", "::1/128"),
        Case("[::1]", "0:0::1/128", "0:0::1/128"),
        Case("[::1]", "0:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1"),
        Case("[::1]", "::1/129", nil),
        Case("[::1]", "foo, bar, ::1/64", "::1/64"),
        Case("[::1]", "foo, bar, 192.168.0.0/16", nil),
        Case("[::1]", "[::1]", nil),
        Case("[::2]", "::1", nil),
        Case("[fe80::ab47:4396:55c9:8474]", "fe80::ab47:4396:55c9:8474/64", "fe80::ab47:4396:55c9:8474/64"),
        Case("[2001:db8:1:2::5]", "2001:db8::/32", "2001:db8::/32"),
        Case("[2001:db9::5]", "2001:db8::/32", nil),
        // Prefix lengths that are not a multiple of 8 (curl fixed the partial byte later).
        Case("[fe80::1]", "fe80::/10", "fe80::/10"),
        Case("[febf::1]", "fe80::/10", "fe80::/10"),
        Case("[fec0::1]", "fe80::/10", nil),
        Case("[2001:db8::1]", "2001:db8::/33", "2001:db8::/33"),
        Case("[2001:db8:8000::1]", "2001:db8::/33", nil),
        // A zone id is not part of the address.
        Case("fe80::1%eth0", "fe80::/64", "fe80::/64"),
        // IPv4 entries never match an IPv6 host, nor IPv6 entries an IPv4 host.
        Case("[::ffff:10.0.0.1]", "10.0.0.0/8", nil),
        Case("10.0.0.1", "::/0", nil),
        // A bracket without its partner is no address, and matches nothing.
        Case("[::1", "::1", nil),
    ])
    func matchesIPv6AddressesAndCIDR(_ item: Case) {
        #expect(NoProxyList(item.list).entryMatching(host: item.host) == item.match)
    }

    @Test func listsItsEntriesAsWritten() {
        #expect(
            NoProxyList(" localhost,, .internal 10.0.0.0/8 ,::1 ").entries == ["localhost", ".internal", "10.0.0.0/8", "::1"])
        #expect(NoProxyList("").entries == [])
        #expect(NoProxyList(",,").entries == [])
    }

    @Test func tellsSpaceSeparatedListsApart() {
        #expect(NoProxyList("a.test b.test").isSpaceSeparated)
        #expect(NoProxyList("a.test\tb.test").isSpaceSeparated)
        #expect(!NoProxyList("a.test, b.test").isSpaceSeparated)
        #expect(!NoProxyList("a.test ,b.test ").isSpaceSeparated)
    }

    @Test func wildcardIsTheWholeListOnly() {
        #expect(NoProxyList("*").matchesEveryHost)
        #expect(!NoProxyList("*,").matchesEveryHost)
        #expect(!NoProxyList(" *").matchesEveryHost)
    }
}
