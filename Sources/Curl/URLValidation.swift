import CCurl

/// How libcurl's own URL parser (`curl_url_set` with `CURLUPART_URL`, the parser a transfer
/// uses) judges a URL, so a URL curl would refuse is a usage error before any call rather
/// than a "connect failed" after one.
public enum URLValidation {
    /// Why libcurl refuses a URL.
    public enum Problem: Sendable, Hashable {
        /// `CURLUE_BAD_PORT_NUMBER`: not a decimal number from 0 to 65535.
        case badPort
        /// `CURLUE_BAD_IPV6`: what stands in brackets is not an IPv6 address.
        case badIPv6
        /// Any other refusal, with `curl_url_strerror`'s words.
        case other(String)
    }

    /// libcurl's verdict on a URL.
    ///
    /// - Parameter url: The URL text, scheme included.
    /// - Returns: `nil` when libcurl accepts it, else why not.
    public static func problem(in url: String) -> Problem? {
        // curl_url needs no global init (libcurl's curl_url(3)).
        guard let handle = curl_url() else { return .other("out of memory") }
        defer { curl_url_cleanup(handle) }
        let code = curl_url_set(handle, CURLUPART_URL, url, 0)
        switch code {
        case CURLUE_OK: return nil
        case CURLUE_BAD_PORT_NUMBER: return .badPort
        case CURLUE_BAD_IPV6: return .badIPv6
        default: return .other(curl_url_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)")
        }
    }
}
