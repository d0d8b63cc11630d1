import CCurl

/// A libcurl result code (`CURLcode`), named for the cases a probe tells apart.
///
/// The names follow libcurl's `CURLE_*` constants (libcurl-errors(3), curl 7.88.1); every other
/// code keeps its number in ``other(_:)``. `rawValue` is the `CURLcode` number.
public enum CurlCode: Sendable, Hashable, CustomStringConvertible {
    /// `CURLE_UNSUPPORTED_PROTOCOL` (1): the URL's scheme is not allowed or not built in.
    case unsupportedProtocol
    /// `CURLE_FAILED_INIT` (2): libcurl could not initialize something.
    case failedInit
    /// `CURLE_URL_MALFORMAT` (3): the URL could not be parsed.
    case urlMalformed
    /// `CURLE_COULDNT_RESOLVE_PROXY` (5): the proxy's host name did not resolve.
    case couldntResolveProxy
    /// `CURLE_COULDNT_RESOLVE_HOST` (6): the target's host name did not resolve.
    case couldntResolveHost
    /// `CURLE_COULDNT_CONNECT` (7): TCP connect to the proxy or host failed (refused, unreachable).
    case couldntConnect
    /// `CURLE_WEIRD_SERVER_REPLY` (8): the server sent something that is not HTTP.
    case weirdServerReply
    /// `CURLE_HTTP_RETURNED_ERROR` (22): status >= 400 while `CURLOPT_FAILONERROR` is set.
    case httpReturnedError
    /// `CURLE_WRITE_ERROR` (23): a write callback refused data.
    case writeError
    /// `CURLE_OUT_OF_MEMORY` (27).
    case outOfMemory
    /// `CURLE_OPERATION_TIMEDOUT` (28): `CURLOPT_CONNECTTIMEOUT_MS` or `CURLOPT_TIMEOUT_MS` expired.
    case operationTimedOut
    /// `CURLE_SSL_CONNECT_ERROR` (35): the TLS handshake failed.
    case sslConnectError
    /// `CURLE_ABORTED_BY_CALLBACK` (42): the transfer was cancelled (see ``TransferCancellation``).
    case abortedByCallback
    /// `CURLE_BAD_FUNCTION_ARGUMENT` (43): an option value was rejected.
    case badFunctionArgument
    /// `CURLE_UNKNOWN_OPTION` (48): the option is unknown to this libcurl.
    case unknownOption
    /// `CURLE_GOT_NOTHING` (52): the server closed the connection without a reply.
    case gotNothing
    /// `CURLE_PARTIAL_FILE` (18): the transfer ended before the size the response announced.
    case partialFile
    /// `CURLE_TOO_MANY_REDIRECTS` (47): more redirects than `CURLOPT_MAXREDIRS` allows.
    case tooManyRedirects
    /// `CURLE_SEND_ERROR` (55): sending network data failed.
    case sendError
    /// `CURLE_RECV_ERROR` (56): receiving network data failed; libcurl 7.88 also reports a
    /// proxy's non-2xx answer to CONNECT this way (see `CURLINFO_HTTP_CONNECTCODE`).
    case recvError
    /// `CURLE_SSL_CERTPROBLEM` (58): the local client certificate could not be used.
    case sslCertProblem
    /// `CURLE_PEER_FAILED_VERIFICATION` (60): the peer's certificate chain or name was not
    /// verified (untrusted, expired, self-signed, host name mismatch).
    case peerFailedVerification
    /// `CURLE_SSL_CACERT_BADFILE` (77): the CA file (`CURLOPT_CAINFO`) could not be read.
    case sslCACertBadFile
    /// `CURLE_SSL_PINNEDPUBKEYNOTMATCH` (90): the peer's public key is not among the pinned keys.
    case sslPinnedPublicKeyNotMatch
    /// `CURLE_PROXY` (97): a proxy handshake error; details in `CURLINFO_PROXY_ERROR`.
    case proxy
    /// Any other `CURLcode`, by number.
    case other(Int32)

    private static let named: [(CurlCode, CURLcode)] = [
        (.unsupportedProtocol, CURLE_UNSUPPORTED_PROTOCOL),
        (.failedInit, CURLE_FAILED_INIT),
        (.urlMalformed, CURLE_URL_MALFORMAT),
        (.couldntResolveProxy, CURLE_COULDNT_RESOLVE_PROXY),
        (.couldntResolveHost, CURLE_COULDNT_RESOLVE_HOST),
        (.couldntConnect, CURLE_COULDNT_CONNECT),
        (.weirdServerReply, CURLE_WEIRD_SERVER_REPLY),
        (.httpReturnedError, CURLE_HTTP_RETURNED_ERROR),
        (.writeError, CURLE_WRITE_ERROR),
        (.outOfMemory, CURLE_OUT_OF_MEMORY),
        (.operationTimedOut, CURLE_OPERATION_TIMEDOUT),
        (.sslConnectError, CURLE_SSL_CONNECT_ERROR),
        (.abortedByCallback, CURLE_ABORTED_BY_CALLBACK),
        (.badFunctionArgument, CURLE_BAD_FUNCTION_ARGUMENT),
        (.unknownOption, CURLE_UNKNOWN_OPTION),
        (.gotNothing, CURLE_GOT_NOTHING),
        (.partialFile, CURLE_PARTIAL_FILE),
        (.tooManyRedirects, CURLE_TOO_MANY_REDIRECTS),
        (.sendError, CURLE_SEND_ERROR),
        (.recvError, CURLE_RECV_ERROR),
        (.sslCertProblem, CURLE_SSL_CERTPROBLEM),
        (.peerFailedVerification, CURLE_PEER_FAILED_VERIFICATION),
        (.sslCACertBadFile, CURLE_SSL_CACERT_BADFILE),
        (.sslPinnedPublicKeyNotMatch, CURLE_SSL_PINNEDPUBKEYNOTMATCH),
        (.proxy, CURLE_PROXY),
    ]

    /// The code for a `CURLcode` number; numbers without a name become ``other(_:)``.
    ///
    /// - Parameter rawValue: a `CURLcode` value, e.g. `7` for `CURLE_COULDNT_CONNECT`.
    public init(rawValue: Int32) {
        for (code, curl) in Self.named where Int32(bitPattern: curl.rawValue) == rawValue {
            self = code
            return
        }
        self = .other(rawValue)
    }

    /// The `CURLcode` number, e.g. `28` for ``operationTimedOut``.
    public var rawValue: Int32 {
        if case .other(let number) = self { return number }
        for (code, curl) in Self.named where code == self {
            return Int32(bitPattern: curl.rawValue)
        }
        return -1
    }

    /// libcurl's short text for the code (`curl_easy_strerror`), e.g. `"Couldn't connect to server"`.
    public var summary: String {
        String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(bitPattern: rawValue))))
    }

    /// `"CURLE <number>"` followed by ``summary``, e.g. `"CURLE 7 (Couldn't connect to server)"`.
    public var description: String { "CURLE \(rawValue) (\(summary))" }
}
