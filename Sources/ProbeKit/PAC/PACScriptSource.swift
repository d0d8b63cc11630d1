import Curl
import Foundation

/// Where a PAC script comes from (`--pac FILE|URL`, the exporter's `pac_url`), and how it is
/// read: a URL is fetched directly, never through the proxy the script chooses, with the run's
/// CA file, `--resolve` entries and time limits; a file is read by the caller.
public enum PACScriptSource: Sendable, Equatable {
    /// An `http://` or `https://` URL.
    case url(String)
    /// A path (also a `file:` URL's path).
    case file(String)

    /// The largest PAC script read, in bytes (1 MiB; corporate PAC files are a few KiB).
    public static let maximumSize = 1 << 20

    /// Reads the value of `--pac` or `pac_url`.
    ///
    /// - Parameter text: `http(s)://…`, `file:///path`, or a path.
    public init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .url(text)
        } else if lower.hasPrefix("file://"), let url = URL(string: text), url.isFileURL {
            self = .file(url.path)
        } else {
            self = .file(text)
        }
    }

    /// The scheme of text that is a URL of another scheme than `http`, `https` or `file`
    /// (`ftp://…`), which no PAC script is read from; `nil` for any other text.
    ///
    /// - Parameter text: the value of `--pac` or `pac_url`.
    public static func unsupportedScheme(in text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return ["http", "https", "file"].contains(scheme.lowercased()) ? nil : String(scheme)
    }

    /// The origin reports name: the path, or the URL with its password redacted.
    public var shown: String {
        switch self {
        case .url(let url): Redaction.url(url)
        case .file(let path): path
        }
    }

    /// The most redirects a fetch follows, as a browser follows a PAC URL's.
    public static let maximumRedirects = 5

    /// Fetches the script at a URL with `GET`, directly, following up to ``maximumRedirects``
    /// redirects to other `http(s)://` URLs. Its TLS is always verified (with the run's CA file
    /// when given): `-k` and `--no-validate-domain-name` are the target's switches, and an
    /// unverified script would decide where every call goes.
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - settings: the run's settings: `--cacert`, `--resolve`, `--connect-to`, the user agent,
    ///     `--connect-timeout` and `--max-time` (the whole fetch's limit, redirects included).
    /// - Returns: the script's text.
    /// - Throws: ``PACScriptError``: the transfer failed, the answer was not `200`, larger than
    ///   ``maximumSize`` or not UTF-8 text, or the redirects went elsewhere or on too long.
    public static func fetch(_ url: String, settings: ProbeSettings) throws(PACScriptError) -> String {
        let shown = Redaction.url(url)
        let deadline = ContinuousClock.now + .milliseconds(Int(settings.effectiveMaxTime * 1000))
        var location = url
        for _ in 0...maximumRedirects {
            let left = deadline - .now
            let milliseconds = Int(left.inSeconds * 1000)
            guard milliseconds > 0 else {
                throw PACScriptError(message: "\(shown) could not be fetched within \(Seconds.text(settings.effectiveMaxTime)) s")
            }
            var options: [EasyOption] = [
                .url(location), .protocols("http,https"), .proxy(""), .noProxy("*"), .userAgent(settings.userAgent),
                .connectTimeout(milliseconds: min(milliseconds, Int(settings.effectiveConnectTimeout * 1000))),
                .timeout(milliseconds: milliseconds),
            ]
            if !settings.resolve.isEmpty { options.append(.resolve(settings.resolve.map(\.description))) }
            if !settings.connectTo.isEmpty { options.append(.connectTo(settings.connectTo)) }
            if let caFile = settings.security.caFile { options.append(.caInfo(path: caFile)) }
            let response: CurlResponse
            do {
                let handle = try EasyHandle()
                try handle.set(options)
                response = try handle.perform(maxBodyBytes: maximumSize)
            } catch {
                throw PACScriptError(message: "\(shown) could not be fetched: \(Redaction.text(error.reason))")
            }
            if [301, 302, 303, 307, 308].contains(response.statusCode),
                let next = response.headers.last(where: { $0.name.lowercased() == "location" })?.value,
                let resolved = URL(string: next.trimmingHTTPWhitespace(), relativeTo: URL(string: location)),
                ["http", "https"].contains(resolved.scheme?.lowercased() ?? "")
            {
                location = resolved.absoluteString
                continue
            }
            if (300..<400).contains(response.statusCode),
                let next = response.headers.last(where: { $0.name.lowercased() == "location" })?.value
            {
                throw PACScriptError(
                    message:
                        "\(shown) answered HTTP \(response.statusCode) to \(Redaction.url(next)), which a PAC fetch does not "
                        + "follow: only http:// and https:// redirects are")
            }
            guard response.statusCode == 200 else {
                throw PACScriptError(message: "\(shown) answered HTTP \(response.statusCode), not 200 with a script")
            }
            return try text(response.isBodyTruncated ? nil : response.body, shown: shown)
        }
        throw PACScriptError(message: "\(shown) redirected more than \(maximumRedirects) times")
    }

    /// A script's bytes as text.
    ///
    /// - Parameters:
    ///   - bytes: the bytes, or `nil` when there were more than ``maximumSize``.
    ///   - shown: the origin, for the error.
    /// - Throws: ``PACScriptError`` for too many bytes, a NUL byte, or bytes that are not UTF-8.
    public static func text(_ bytes: [UInt8]?, shown: String) throws(PACScriptError) -> String {
        guard let bytes, bytes.count <= maximumSize else {
            throw PACScriptError(message: "\(shown) is larger than \(maximumSize >> 20) MiB, the most a PAC script may be")
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw PACScriptError(message: "\(shown) is not a PAC script: not UTF-8 text")
        }
        return text
    }
}

/// Why a PAC script could not be read; the message names its origin, never a password.
public struct PACScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line.
    public var message: String

    /// An error.
    ///
    /// - Parameter message: one line naming the script's origin, never a password.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
