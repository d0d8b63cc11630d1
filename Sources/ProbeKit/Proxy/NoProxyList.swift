/// A list of hosts that bypass the proxy, as in `NO_PROXY`/`no_proxy` or curl's `--noproxy`,
/// matched the way libcurl 7.88.1 matches it (`lib/noproxy.c`, `Curl_check_noproxy`).
///
/// Rules (curl's documentation of `CURLOPT_NOPROXY` and `NO_PROXY`, and its code):
/// - The whole text `*` (nothing else, no blanks) matches every host. A `*` inside a longer
///   list is an ordinary entry that matches no real host.
/// - Entries are separated by commas; runs of commas and blanks (space, tab) around entries are
///   skipped. Blanks alone also separate entries: libcurl 7.88.1 accepts that and logs "space-
///   separated NOPROXY patterns are deprecated" (see ``isSpaceSeparated``).
/// - For a host name: one trailing dot is ignored on both the host and the entry, one leading
///   dot on the entry; then the entry matches the host exactly or as a suffix that starts right
///   after a dot (`example.com` and `.example.com` match `example.com` and `www.example.com`,
///   not `nonexample.com`), compared case-insensitively (ASCII).
/// - For an IPv4 host: an entry `A.B.C.D` matches that address; `A.B.C.D/N` matches the first
///   `N` bits (RFC 4632). The prefix length is read like C's `atoi` (`/8x` is 8); `/0`, a
///   missing or unreadable length means "this exact address" (curl 7.88.1: not "everything");
///   lengths above 32 or negative never match. Host names never match an address entry.
/// - For an IPv6 host (`[::1]` or `::1`): the same with 128 bits; entries are written without
///   brackets (`::1`, `fe80::/10`); a bracketed entry never matches.
/// - An entry with a port (`localhost:8080`, `10.0.0.1:3128`) never matches: curl 7.88.1 has
///   no port syntax, so it compares `host:port` as a whole name.
/// - Entries of 128 characters or more never match an address (libcurl's buffer size).
///
/// Where this type differs from libcurl 7.88.1, it does so on purpose, as later curl does:
/// - An IPv6 host given without brackets is matched as an address. libcurl 7.88.1 strips the
///   brackets before matching, so it compares IPv6 hosts as strings and its CIDR entries never
///   match them (fixed in curl by pull request #19828).
/// - A prefix length that is not a multiple of 8 compares the partial byte correctly; libcurl
///   7.88.1 inverts that comparison (fixed in curl by pull request #18891).
public struct NoProxyList: Sendable, Equatable {
    /// The list as written.
    public let text: String

    /// A list from its text, e.g. `"localhost,.internal,10.0.0.0/8, ::1"`.
    ///
    /// - Parameter text: the value of `NO_PROXY` or `--noproxy`.
    public init(_ text: String) {
        self.text = text
    }

    /// The entries as written, in order, without separators (empty for `""`).
    public var entries: [String] {
        tokens.map(\.text)
    }

    /// Whether the list is exactly `*`: every host bypasses the proxy.
    public var matchesEveryHost: Bool { text == "*" }

    /// Whether two entries are separated by blanks only, which libcurl 7.88.1 accepts with the
    /// warning "space-separated NOPROXY patterns are deprecated".
    public var isSpaceSeparated: Bool {
        tokens.contains { $0.followedByBlankSeparator }
    }

    /// The entry that makes `host` bypass the proxy, or `nil` when none does.
    ///
    /// - Parameter host: the target's host: a name (`api.example.com`, trailing dot allowed),
    ///   an IPv4 address, or an IPv6 address with or without brackets (a zone id is ignored).
    /// - Returns: the first matching entry as written (`"*"` for the whole-list wildcard).
    public func entryMatching(host: String) -> String? {
        guard !host.isEmpty, !text.isEmpty else { return nil }
        if matchesEveryHost { return "*" }
        guard let target = Target(host) else { return nil }
        return tokens.first { target.isMatched(by: $0.text) }?.text
    }

    // MARK: - Tokens

    private struct Token {
        var text: String
        /// The next entry follows after blanks without a comma.
        var followedByBlankSeparator: Bool
    }

    /// Splits ``text`` as libcurl's loop does: skip blanks, read to a blank or comma, skip
    /// blanks; a comma run continues the list, any other character starts the next entry.
    private var tokens: [Token] {
        let characters = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        while index < characters.count {
            while index < characters.count && isBlank(characters[index]) { index += 1 }
            let start = index
            while index < characters.count && !isBlank(characters[index]) && characters[index] != "," { index += 1 }
            var token: Token?
            if index > start {
                var scalars = String.UnicodeScalarView()
                scalars.append(contentsOf: characters[start..<index])
                token = Token(text: String(scalars), followedByBlankSeparator: false)
            }
            while index < characters.count && isBlank(characters[index]) { index += 1 }
            if index < characters.count && characters[index] != "," {
                token?.followedByBlankSeparator = true
            }
            if let token { tokens.append(token) }
            while index < characters.count && characters[index] == "," { index += 1 }
        }
        return tokens
    }

    // MARK: - Matching

    /// The host, classified once: a name (trailing dot dropped) or an address.
    private enum Target {
        case name(String)
        case address(IPAddress)

        init?(_ host: String) {
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { return nil }
                let inner = String(host[host.index(after: host.startIndex)..<close])
                guard inner.utf8.count < 128, let address = IPAddress.v6(parsing: inner) else { return nil }
                self = .address(address)
            } else if let address = IPAddress.v4(parsing: host) {
                self = .address(address)
            } else if host.contains(":" as Character), host.utf8.count < 128,
                let address = IPAddress.v6(parsing: String(host.prefix { $0 != "%" }))
            {
                // A zone id ("fe80::1%eth0") is not part of the address; libcurl moves it out
                // of the host name before matching, too.
                self = .address(address)
            } else {
                self = .name(host.hasSuffix(".") ? String(host.dropLast()) : host)
            }
        }

        func isMatched(by entry: String) -> Bool {
            switch self {
            case .name(let name): Self.name(name, isMatchedBy: entry)
            case .address(let address): Self.address(address, isMatchedBy: entry)
            }
        }

        private static func name(_ name: String, isMatchedBy entry: String) -> Bool {
            var pattern = Substring(entry)
            if pattern.hasSuffix(".") { pattern = pattern.dropLast() }
            if pattern.hasPrefix(".") { pattern = pattern.dropFirst() }
            let host = Array(name.utf8)
            let suffix = Array(pattern.utf8)
            if suffix.count == host.count {
                return asciiCaseInsensitiveEqual(suffix, host[...])
            }
            guard suffix.count < host.count else { return false }
            let start = host.count - suffix.count
            return host[start - 1] == UInt8(ascii: ".") && asciiCaseInsensitiveEqual(suffix, host[start...])
        }

        private static func address(_ address: IPAddress, isMatchedBy entry: String) -> Bool {
            guard entry.utf8.count < 128 else { return false }
            var network = Substring(entry)
            var bits = 0
            if let slash = entry.firstIndex(of: "/") {
                network = entry[..<slash]
                guard let length = atoiPrefixLength(entry[entry.index(after: slash)...]) else { return false }
                bits = length
            }
            switch address {
            case .v4:
                guard bits <= 32, let check = IPAddress.v4(parsing: String(network)) else { return false }
                return address.hasPrefix(bits == 0 ? 32 : bits, of: check)
            case .v6:
                guard bits <= 128, let check = IPAddress.v6(parsing: String(network)) else { return false }
                return address.hasPrefix(bits == 0 ? 128 : bits, of: check)
            }
        }

        /// C's `atoi` on the text after `/`: optional sign, then leading digits; `0` when there
        /// are none. `nil` for a negative value, which libcurl's unsigned cast makes unmatchable.
        private static func atoiPrefixLength(_ text: Substring) -> Int? {
            var scalars = Substring(text).unicodeScalars[...]
            var negative = false
            if let sign = scalars.first, sign == "+" || sign == "-" {
                negative = sign == "-"
                scalars = scalars.dropFirst()
            }
            var value = 0
            for scalar in scalars {
                guard ("0"..."9").contains(scalar) else { break }
                value = min(value * 10 + Int(scalar.value - 48), 1_000)
            }
            if negative && value > 0 { return nil }
            return value
        }

        private static func asciiCaseInsensitiveEqual(_ left: [UInt8], _ right: ArraySlice<UInt8>) -> Bool {
            guard left.count == right.count else { return false }
            return zip(left, right).allSatisfy { lowered($0) == lowered($1) }
        }

        private static func lowered(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
    }
}
