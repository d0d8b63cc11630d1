import Curl
import Foundation

/// How a redirect is followed, the same in every engine: which answers are followed, the
/// request the next hop sends, and what never crosses to another origin.
///
/// Sources: RFC 9110 section 15.4 (3xx, `Location` as a URI reference resolved against the
/// request's URL); curl's `Curl_follow` (`301`/`302` turn `POST` into `GET`, `303` turns every
/// method but `HEAD` into `GET`, the body dropped with it) and its custom-header rule since
/// 7.83.0 (CVE-2018-1000007, CVE-2022-27776: `-H` `Authorization`, `Cookie` and `Host` are sent
/// only while scheme, host and port stay those of the first URL).
public enum RedirectRules {
    /// The statuses whose `Location` is followed: 300 and the redirects RFC 9110 section 15.4
    /// asks a client to follow automatically (301, 302, 303, 307, 308). 304 and 305 are not.
    public static let followedStatuses: Set<Int> = [300, 301, 302, 303, 307, 308]

    /// Header fields given with `-H` that are never sent to another origin than the first
    /// URL's: `Host`, which names it, and every field whose value is a credential by the one
    /// secret rule (``Redaction/isSecretHeaderName(_:)``: `Authorization`, `Cookie`, `X-Api-Key`,
    /// `X-Auth-Token`, `Private-Token`, …), which curl limits to `Authorization` and `Cookie`.
    ///
    /// - Parameter name: the field name, in any case.
    public static func isOriginBound(_ name: String) -> Bool {
        name.lowercased() == "host" || Redaction.isSecretHeaderName(name)
    }

    /// Whether two URLs share an origin: scheme, host and port (RFC 6454 section 4).
    ///
    /// - Parameters:
    ///   - left: a URL.
    ///   - right: another URL.
    public static func sameOrigin(_ left: ProbeRequest, _ right: ProbeRequest) -> Bool {
        left.url.scheme?.lowercased() == right.url.scheme?.lowercased() && left.host.lowercased() == right.host.lowercased()
            && left.port == right.port
    }

    /// The request the next hop sends, or why the redirect is not followed.
    ///
    /// - Parameters:
    ///   - request: the hop that was answered.
    ///   - first: the call's first request: origin-bound fields follow only while the origin is its own.
    ///   - status: the 3xx status.
    ///   - location: the `Location` value as sent.
    ///   - allowedTargets: the targets the run may ask for, or `nil` for any.
    /// - Returns: the next request, or a ``FailureCode/redirectRefused`` reason; nothing was sent
    ///   to the refused location.
    public static func next(
        after request: ProbeRequest, first: ProbeRequest, status: Int, location: String, allowedTargets: TargetFilter?
    ) -> Decision {
        let shown = Redaction.url(location)
        func refused(_ why: String, hint: String?, appleError: AppleClientError?) -> Decision {
            .refuse(.redirectRefused(status: status, location: shown, why: why, hint: hint, appleError: appleError))
        }
        guard let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = url.scheme?.lowercased()
        else {
            return refused("it is no URL", hint: nil, appleError: .badURL)
        }
        guard scheme == "http" || scheme == "https" else {
            return refused(
                "the probe follows http:// and https:// only", hint: "a Location with an http:// or https:// URL",
                appleError: .unsupportedURL)
        }
        if let allowedTargets, !allowedTargets.allows(url.absoluteString) {
            return refused(
                "\(allowedTargets.option) does not allow it",
                hint: "add a pattern to \(allowedTargets.option) if that target may be probed", appleError: nil)
        }
        var method = request.method
        var body = request.body
        if (status == 303 && method != "HEAD") || ([301, 302].contains(status) && method == "POST") {
            method = "GET"
            body = nil
        }
        var next: ProbeRequest
        do {
            next = try ProbeRequest(
                url: url, method: method, headers: request.headers, expectations: request.expectations,
                repetition: request.repetition)
        } catch {
            return refused(error.description, hint: nil, appleError: .badURL)
        }
        next.body = body
        next.headers =
            sameOrigin(next, first) ? first.headers : first.headers.filter { !isOriginBound($0.name) && !$0.isSecret }
        return .follow(next)
    }

    /// What becomes of a redirect.
    public enum Decision: Sendable, Equatable {
        /// Follow it with this request.
        case follow(ProbeRequest)
        /// Do not follow it, for this reason; nothing is sent to its location.
        case refuse(FailureReason)
    }
}
