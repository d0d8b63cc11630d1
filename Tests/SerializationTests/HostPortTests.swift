import Serialization
import Testing

/// `HOST:PORT` written and taken apart as a URL authority and Go's `net.SplitHostPort` have it.
@Suite struct HostPortTests {
    @Test func anIPv6AddressIsBracketedWhenJoined() {
        #expect(HostPort.joined("::1", 9115) == "[::1]:9115")
        #expect(HostPort.joined("[::1]", 9115) == "[::1]:9115")
        #expect(HostPort.joined("127.0.0.1", 80) == "127.0.0.1:80")
    }

    @Test func splitReadsEachFormAndRefusesABrokenBracket() {
        func split(_ text: String) -> [String?]? {
            HostPort.split(text[...]).map { [String($0.host), $0.port.map(String.init)] }
        }
        #expect(split("127.0.0.1:9115") == ["127.0.0.1", "9115"])
        #expect(split("[::1]:443") == ["::1", "443"])
        #expect(split("[::1]") == ["::1", nil])
        #expect(split("localhost") == ["localhost", nil])
        #expect(split(":9115") == ["", "9115"])
        #expect(split("::1") == ["::1", nil])
        #expect(split("fe80::1:80") == ["fe80::1:80", nil])
        #expect(split("[::1") == nil)
        #expect(split("[::1]x") == nil)
    }
}
