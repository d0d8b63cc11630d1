/// A failed libcurl call: the `CURLcode`, curl's own words, and what the transfer had collected.
///
/// `message` is the text libcurl wrote to `CURLOPT_ERRORBUFFER` (specific: "Failed to connect
/// to 127.0.0.1 port 9 after 0 ms: Connection refused"); `summary` is `curl_easy_strerror`'s
/// generic text for the code. Neither ever holds a proxy password: ``EasyHandle`` hands the
/// proxy's credentials to libcurl through `CURLOPT_PROXYUSERNAME`/`CURLOPT_PROXYPASSWORD` only.
public struct CurlError: Error, Sendable, CustomStringConvertible {
    /// The `CURLcode`, named where a probe tells it apart.
    public var code: CurlCode
    /// The text of `CURLOPT_ERRORBUFFER` without a trailing newline; empty when libcurl wrote none.
    public var message: String
    /// Which call failed, e.g. `"curl_easy_setopt(CURLOPT_URL)"` or `"curl_multi_perform"`;
    /// `nil` for a transfer's own result.
    public var context: String?
    /// What the transfer had collected when it failed (timings, `CURLINFO_HTTP_CONNECTCODE`,
    /// the peer's certificates, the debug log); `nil` when the failure came before a transfer.
    public var partialResponse: CurlResponse?

    /// An error for a `CURLcode`.
    ///
    /// - Parameters:
    ///   - code: the `CURLcode`.
    ///   - message: curl's `CURLOPT_ERRORBUFFER` text; empty when there is none.
    ///   - context: the call that failed, e.g. `"curl_easy_init"`.
    ///   - partialResponse: what a failed transfer had collected.
    public init(code: CurlCode, message: String = "", context: String? = nil, partialResponse: CurlResponse? = nil) {
        self.code = code
        self.message = message
        self.context = context
        self.partialResponse = partialResponse
    }

    /// `curl_easy_strerror` for ``code``, e.g. `"Timeout was reached"`.
    public var summary: String { code.summary }

    /// The most specific text there is: ``message`` when curl wrote one, else ``summary``.
    public var reason: String { message.isEmpty ? summary : message }

    /// One line: `"[context: ]CURLE <n> (<summary>): <message>"`.
    public var description: String {
        let prefix = context.map { "\($0): " } ?? ""
        let detail = message.isEmpty ? "" : ": \(message)"
        return "\(prefix)\(code)\(detail)"
    }
}
