/// The error an app on Apple platforms would get for the same failure, so that app developers
/// recognise it: usually a `URLError` code (`NSURLErrorDomain`, Apple's `URLError.Code`
/// documentation), for proxy failures a `CFNetworkErrors` code (`kCFErrorDomainCFNetwork`).
public struct AppleClientError: Sendable, Equatable, CustomStringConvertible {
    /// `NSURLErrorDomain`: the domain of `URLError`.
    public static let urlErrorDomain = "NSURLErrorDomain"
    /// `kCFErrorDomainCFNetwork`: the domain of `CFNetworkErrors` (CFNetworkErrors.h).
    public static let cfNetworkDomain = "kCFErrorDomainCFNetwork"

    /// The error domain, ``urlErrorDomain`` or ``cfNetworkDomain``.
    public var domain: String
    /// The code, e.g. `-1202`.
    public var code: Int
    /// The Swift name of the code, e.g. `"serverCertificateUntrusted"` (`URLError.Code`), or the
    /// C name for CFNetwork codes, e.g. `"kCFErrorHTTPSProxyConnectionFailure"`.
    public var name: String
    /// What else an app may see, e.g. `-999 cancelled` when it cancels the trust challenge.
    public var note: String?

    /// An error.
    ///
    /// - Parameters:
    ///   - domain: ``urlErrorDomain`` or ``cfNetworkDomain``.
    ///   - code: the code.
    ///   - name: the code's name.
    ///   - note: what else an app may see, or `nil`.
    public init(domain: String = AppleClientError.urlErrorDomain, code: Int, name: String, note: String? = nil) {
        self.domain = domain
        self.code = code
        self.name = name
        self.note = note
    }

    /// `"-1202 serverCertificateUntrusted"`; CFNetwork codes carry their domain:
    /// `"kCFErrorDomainCFNetwork 310 kCFErrorHTTPSProxyConnectionFailure"`.
    public var description: String {
        domain == Self.urlErrorDomain ? "\(code) \(name)" : "\(domain) \(code) \(name)"
    }

    /// The same error with a note.
    ///
    /// - Parameter note: what else an app may see.
    /// - Returns: a copy with ``note`` set.
    public func noting(_ note: String) -> AppleClientError {
        var copy = self
        copy.note = note
        return copy
    }

    // MARK: - URLError.Code (Apple's documentation of URLError.Code)

    /// `URLError.Code.unknown` (-1): FoundationNetworking on Linux reports most libcurl errors so.
    public static let unknown = AppleClientError(code: -1, name: "unknown")
    /// `URLError.Code.cancelled` (-999): the task was cancelled, also by a delegate that
    /// cancels an authentication (server trust) challenge.
    public static let cancelled = AppleClientError(code: -999, name: "cancelled")
    /// `URLError.Code.badURL` (-1000).
    public static let badURL = AppleClientError(code: -1000, name: "badURL")
    /// `URLError.Code.timedOut` (-1001): the request timed out.
    public static let timedOut = AppleClientError(code: -1001, name: "timedOut")
    /// `URLError.Code.unsupportedURL` (-1002).
    public static let unsupportedURL = AppleClientError(code: -1002, name: "unsupportedURL")
    /// `URLError.Code.cannotFindHost` (-1003): the host name could not be resolved.
    public static let cannotFindHost = AppleClientError(code: -1003, name: "cannotFindHost")
    /// `URLError.Code.cannotConnectToHost` (-1004): the connection attempt failed.
    public static let cannotConnectToHost = AppleClientError(code: -1004, name: "cannotConnectToHost")
    /// `URLError.Code.networkConnectionLost` (-1005).
    public static let networkConnectionLost = AppleClientError(code: -1005, name: "networkConnectionLost")
    /// `URLError.Code.httpTooManyRedirects` (-1007): a redirect chain too long (Apple's limit is 16).
    public static let httpTooManyRedirects = AppleClientError(code: -1007, name: "httpTooManyRedirects")
    /// `URLError.Code.badServerResponse` (-1011): e.g. an empty reply.
    public static let badServerResponse = AppleClientError(code: -1011, name: "badServerResponse")
    /// `URLError.Code.appTransportSecurityRequiresSecureConnection` (-1022): App Transport
    /// Security refused a cleartext `http://` load.
    public static let appTransportSecurityRequiresSecureConnection = AppleClientError(
        code: -1022, name: "appTransportSecurityRequiresSecureConnection")
    /// `URLError.Code.userAuthenticationRequired` (-1013).
    public static let userAuthenticationRequired = AppleClientError(code: -1013, name: "userAuthenticationRequired")
    /// `URLError.Code.secureConnectionFailed` (-1200): TLS failed for no more specific reason.
    public static let secureConnectionFailed = AppleClientError(code: -1200, name: "secureConnectionFailed")
    /// `URLError.Code.serverCertificateHasBadDate` (-1201): expired or not yet valid.
    public static let serverCertificateHasBadDate = AppleClientError(code: -1201, name: "serverCertificateHasBadDate")
    /// `URLError.Code.serverCertificateUntrusted` (-1202): not trusted, also for a name mismatch.
    public static let serverCertificateUntrusted = AppleClientError(code: -1202, name: "serverCertificateUntrusted")
    /// `URLError.Code.serverCertificateHasUnknownRoot` (-1203).
    public static let serverCertificateHasUnknownRoot = AppleClientError(
        code: -1203, name: "serverCertificateHasUnknownRoot")
    /// `URLError.Code.serverCertificateNotYetValid` (-1204).
    public static let serverCertificateNotYetValid = AppleClientError(code: -1204, name: "serverCertificateNotYetValid")

    // MARK: - CFNetworkErrors (CFNetworkErrors.h)

    /// `kCFErrorHTTPProxyConnectionFailure` (306): the connection to an HTTP proxy failed.
    public static let httpProxyConnectionFailure = AppleClientError(
        domain: cfNetworkDomain, code: 306, name: "kCFErrorHTTPProxyConnectionFailure")
    /// `kCFErrorHTTPSProxyConnectionFailure` (310): the tunnel through the proxy for an
    /// `https://` URL failed (connecting to the proxy, or its answer to CONNECT).
    public static let httpsProxyConnectionFailure = AppleClientError(
        domain: cfNetworkDomain, code: 310, name: "kCFErrorHTTPSProxyConnectionFailure")

    /// Every `URLError` constant above, for naming a code FoundationNetworking returned.
    static let knownURLErrors: [AppleClientError] = [
        .unknown, .cancelled, .badURL, .timedOut, .unsupportedURL, .cannotFindHost, .cannotConnectToHost,
        .networkConnectionLost, .httpTooManyRedirects, .badServerResponse, .userAuthenticationRequired,
        .appTransportSecurityRequiresSecureConnection, .secureConnectionFailed,
        .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
        .serverCertificateNotYetValid,
    ]

    /// The `URLError` with this code, named when known (else `"code<N>"`).
    ///
    /// - Parameter code: an `NSURLErrorDomain` code, e.g. `-1003`.
    /// - Returns: the error.
    public static func urlError(code: Int) -> AppleClientError {
        knownURLErrors.first { $0.code == code } ?? AppleClientError(code: code, name: "code\(code)")
    }
}
