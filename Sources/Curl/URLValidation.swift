import CCurl

/// Why libcurl's own URL parser (`curl_url_set` with `CURLUPART_URL`, the parser a transfer
/// uses) refuses a URL, so a URL curl would refuse is a usage error before any call rather
/// than a "connect failed" after one. ``URLParts/parse(_:reading:)`` gives the verdict.
public enum URLValidation {
    /// Why libcurl refuses a URL.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// `CURLUE_BAD_PORT_NUMBER`: not a decimal number from 0 to 65535.
        case badPort
        /// `CURLUE_BAD_IPV6`: what stands in brackets is not an IPv6 address.
        case badIPv6
        /// `CURLUE_URLDECODE`: a part read percent-decoded (user, password, a proxy's host)
        /// decodes to a control character.
        case undecodable
        /// Any other refusal, with `curl_url_strerror`'s words.
        case other(String)

        /// The problem in words, e.g. `the port is not a number from 0 to 65535`.
        public var description: String {
            switch self {
            case .badPort: "the port is not a number from 0 to 65535"
            case .badIPv6: "what stands in brackets is not an IPv6 address"
            case .undecodable: "a percent-encoded part decodes to a control character"
            case .other(let words): words
            }
        }
    }

    /// The problem a `CURLUcode` other than `CURLUE_OK` names.
    static func problem(_ code: CURLUcode) -> Problem {
        switch code {
        case CURLUE_BAD_PORT_NUMBER: .badPort
        case CURLUE_BAD_IPV6: .badIPv6
        case CURLUE_URLDECODE: .undecodable
        default: .other(curl_url_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)")
        }
    }
}
