/// What libcurl said about one transfer while `CURLOPT_VERBOSE` was on, captured through
/// `CURLOPT_DEBUGFUNCTION` instead of being printed to standard error.
///
/// The log keeps libcurl's informational text (`CURLINFO_TEXT`: "Trying 127.0.0.1:3128...",
/// "CONNECT tunnel failed, response 407", OpenSSL's "SSL certificate problem: certificate has
/// expired", "SSL: no alternative certificate subject name matches target host name 'x'") and
/// the header lines sent and received (`CURLINFO_HEADER_OUT`, `CURLINFO_HEADER_IN`). Body and
/// raw TLS bytes are left out. Values of `Authorization` and `Proxy-Authorization` header lines
/// are replaced with `***`. The log stops growing at the byte limit given to
/// ``EasyHandle/perform(maxBodyBytes:maxDebugLogBytes:cancellation:)``.
public struct DebugLog: Sendable, Equatable {
    /// The entries in the order libcurl produced them.
    public var entries: [DebugEntry]
    /// `true` when entries were dropped because the log reached its byte limit.
    public var isTruncated: Bool

    /// A log.
    ///
    /// - Parameters:
    ///   - entries: the entries in order.
    ///   - isTruncated: whether entries were dropped at the byte limit.
    public init(entries: [DebugEntry] = [], isTruncated: Bool = false) {
        self.entries = entries
        self.isTruncated = isTruncated
    }

    /// The whole log as text, one line per line libcurl wrote, prefixed like the curl tool's
    /// `-v` output: `"* "` for text, `"> "` for headers sent, `"< "` for headers received.
    public var text: String {
        var lines: [String] = []
        for entry in entries {
            for line in entry.text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let content = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
                if content.isEmpty { continue }
                lines.append(entry.kind.prefix + content)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether any entry's text contains `fragment` (exact, case-sensitive).
    ///
    /// - Parameter fragment: text to look for, e.g. `"certificate has expired"`.
    /// - Returns: `true` when some entry contains it.
    public func contains(_ fragment: String) -> Bool {
        entries.contains { $0.text.contains(fragment) }
    }
}
