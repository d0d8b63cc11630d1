import CCurl

/// A URL's parts as libcurl's own URL API gives them (`curl_url_set`, `curl_url_get`), read
/// with the flags libcurl 7.88.1 uses itself, so that what stagebuild takes from a URL can be
/// checked against what a transfer would take.
///
/// Two readings, as in curl 7.88.1's `lib/url.c`:
/// - ``Reading/transfer`` (`parseurlandfillconn`, for `CURLOPT_URL`): set with
///   `CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME`; the host as stored (percent-decoded when
///   set, an IPv4 address in any of its forms normalized to a dotted quad, an IPv6 address in
///   brackets, shortened, its zone id moved out); user and password percent-decoded with
///   control characters refused; the path percent-encoded as sent; the port with the scheme's
///   default (`CURLU_DEFAULT_PORT`).
/// - ``Reading/proxy`` (`parse_proxy`, for `CURLOPT_PROXY` and the proxy variables): set with
///   `CURLU_NON_SUPPORT_SCHEME | CURLU_GUESS_SCHEME` (no default scheme: guessing gives `http`
///   for a bare host); user, password and host read with `CURLU_URLDECODE` (so a host is
///   decoded a second time); the port only when written.
public struct URLParts: Sendable, Equatable {
    /// Which of libcurl's calls to read the text as.
    public enum Reading: Sendable, Equatable {
        /// As a transfer reads `CURLOPT_URL`.
        case transfer
        /// As `parse_proxy` reads proxy text.
        case proxy
    }

    /// The scheme in lower case, guessed when the text has none (`http`, or `ftp` for
    /// `ftp.example`, and so on).
    public var scheme: String
    /// The user name, percent-decoded; `nil` without user info.
    public var user: String?
    /// The password, percent-decoded; `nil` without a `:` in the user info.
    public var password: String?
    /// The host, IPv6 in brackets without its zone id (`[fe80::1]`).
    public var host: String
    /// The IPv6 zone id (`eth0` of `[fe80::1%25eth0]`), or `nil`.
    public var zoneID: String?
    /// The port: for ``Reading/transfer`` the written one or the scheme's default (`nil` for a
    /// scheme libcurl has no default for); for ``Reading/proxy`` the written one only.
    public var port: Int?
    /// The path, at least `/`; percent-encoded as sent for ``Reading/transfer``.
    public var path: String
    /// The query without `?`, or `nil` when there is none.
    public var query: String?
    /// The fragment without `#`, or `nil` when there is none.
    public var fragment: String?

    /// The host without IPv6 brackets, as libcurl names the connection's host (`conn->host.name`
    /// for a transfer, the proxy's host name for a proxy).
    public var hostWithoutBrackets: String {
        guard host.hasPrefix("["), host.hasSuffix("]") else { return host }
        return String(host.dropFirst().dropLast())
    }

    /// libcurl's parts of `text`, or why it refuses the text.
    ///
    /// - Parameters:
    ///   - text: A URL or proxy text.
    ///   - reading: Which of libcurl's calls to read it as.
    /// - Returns: The parts, or the problem libcurl names (`.other` carries
    ///   `curl_url_strerror`'s words, also for user info that does not decode).
    public static func parse(_ text: String, reading: Reading) -> Result<URLParts, URLValidation.Problem> {
        // curl_url needs no global init (libcurl's curl_url(3)).
        guard let handle = curl_url() else { return .failure(.other("out of memory")) }
        defer { curl_url_cleanup(handle) }
        let setFlags = UInt32(CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME)
        let code = curl_url_set(handle, CURLUPART_URL, text, setFlags)
        guard code == CURLUE_OK else { return .failure(URLValidation.problem(code)) }

        let decode = UInt32(CURLU_URLDECODE)
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> Result<String?, URLValidation.Problem> {
            var value: UnsafeMutablePointer<CChar>?
            let code = curl_url_get(handle, which, &value, flags)
            defer { curl_free(value) }
            switch code {
            case CURLUE_OK: return .success(value.map { String(cString: $0) })
            case CURLUE_NO_USER, CURLUE_NO_PASSWORD, CURLUE_NO_PORT, CURLUE_NO_QUERY, CURLUE_NO_FRAGMENT,
                CURLUE_NO_ZONEID:
                return .success(nil)
            default: return .failure(URLValidation.problem(code))
            }
        }
        do {
            let isTransfer = reading == .transfer
            let port = try part(CURLUPART_PORT, isTransfer ? UInt32(CURLU_DEFAULT_PORT) : 0).get()
            return .success(
                URLParts(
                    scheme: try part(CURLUPART_SCHEME).get() ?? "",
                    user: try part(CURLUPART_USER, decode).get(),
                    password: try part(CURLUPART_PASSWORD, decode).get(),
                    host: try part(CURLUPART_HOST, isTransfer ? 0 : decode).get() ?? "",
                    zoneID: try part(CURLUPART_ZONEID).get(),
                    // libcurl reads the port back with strtol; it wrote it as a decimal number.
                    port: port.flatMap { Int($0) },
                    path: try part(CURLUPART_PATH, isTransfer ? UInt32(CURLU_URLENCODE) : 0).get() ?? "/",
                    query: try part(CURLUPART_QUERY).get(),
                    fragment: try part(CURLUPART_FRAGMENT).get()))
        } catch {
            return .failure(error)
        }
    }
}
