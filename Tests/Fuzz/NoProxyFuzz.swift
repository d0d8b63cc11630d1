import ProbeKit

/// The NO_PROXY list (`NoProxyList.entryMatching(host:)`, libcurl 7.88.1's `Curl_check_noproxy`).
/// An input is a list and a host, separated by a NUL byte. For every input:
/// - the entry returned is one of the list's entries (or `*` for the whole-list wildcard);
/// - the decision ignores ASCII case, in the host and in the list, as curl compares;
/// - the entries joined with commas decide the same, with the same entry;
/// - an entry appended at the end never takes a match away.
/// (`*` is the wildcard only as the whole list's text, as in libcurl 7.88.1: `" *"` is not.)
enum NoProxyFuzz {
    static let target = FuzzTarget(name: "noproxy", check: check, grow: grow)

    static func check(_ bytes: [UInt8]) {
        guard let parts = textParts(of: bytes, count: 2) else { return }
        let list = NoProxyList(parts[0])
        let host = parts[1]
        let entry = list.entryMatching(host: host)
        if let entry, !(list.entries.contains(entry) || (entry == "*" && list.matchesEveryHost)) {
            invariantFailed("noproxy", "the matching entry is not in the list")
        }
        if NoProxyList(flippedCase(parts[0])).entryMatching(host: flippedCase(host)).map(flippedCase) != entry {
            invariantFailed("noproxy", "the decision depends on ASCII case")
        }
        if list.entries != ["*"], NoProxyList(list.entries.joined(separator: ",")).entryMatching(host: host) != entry {
            invariantFailed("noproxy", "the entries joined with commas decide differently")
        }
        if entry != nil, !list.matchesEveryHost, NoProxyList(parts[0] + ",other.invalid").entryMatching(host: host) != entry {
            invariantFailed("noproxy", "an entry appended at the end took the match away")
        }
    }

    /// Upper-case ASCII letters made lower case and lower-case ones upper case; other
    /// characters as they are.
    static func flippedCase(_ text: String) -> String {
        var flipped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A: flipped.append(Unicode.Scalar(UInt8(scalar.value) ^ 0x20))
            default: flipped.append(scalar)
            }
        }
        return String(flipped)
    }

    /// The list's text repeated, comma-separated, and the same host.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        let separator = seed.firstIndex(of: 0) ?? seed.endIndex
        let list = Array(seed[..<separator])
        let repeated = Array(repeating: list, count: factor).joined(separator: [UInt8(ascii: ",")])
        return Array(repeated) + Array(seed[separator...])
    }
}
