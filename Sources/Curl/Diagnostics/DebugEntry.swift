/// One piece of libcurl's debug output (`CURLOPT_DEBUGFUNCTION`).
public struct DebugEntry: Sendable, Equatable {
    /// Which kind of output this is (`curl_infotype`).
    public enum Kind: Sendable, Equatable {
        /// `CURLINFO_TEXT`: libcurl's informational text.
        case text
        /// `CURLINFO_HEADER_IN`: a header line received (from the proxy or the server).
        case headerIn
        /// `CURLINFO_HEADER_OUT`: the header block sent.
        case headerOut

        /// The curl tool's `-v` prefix: `"* "`, `"< "` or `"> "`.
        var prefix: String {
            switch self {
            case .text: "* "
            case .headerIn: "< "
            case .headerOut: "> "
            }
        }
    }

    /// The kind of output.
    public var kind: Kind
    /// The text as libcurl wrote it, line ends included, credentials redacted.
    public var text: String

    /// An entry.
    ///
    /// - Parameters:
    ///   - kind: the kind of output.
    ///   - text: the text.
    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }
}
