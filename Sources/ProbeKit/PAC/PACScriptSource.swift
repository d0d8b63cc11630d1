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

    /// The origin reports name: the path, or the URL without user info.
    public var shown: String {
        switch self {
        case .url(let url): Redaction.url(url)
        case .file(let path): path
        }
    }

    /// Fetches the script at a URL with one `GET`, directly.
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - settings: the run's settings: `--cacert`, `--resolve`, `--connect-to`, the TLS policy's verification,
    ///     `--connect-timeout`, `--max-time` and the user agent.
    /// - Returns: the script's text.
    /// - Throws: ``PACScriptError``: the transfer failed, the answer was not `200`, larger than
    ///   ``maximumSize`` or not UTF-8 text.
    public static func fetch(_ url: String, settings: ProbeSettings) throws(PACScriptError) -> String {
        let shown = Redaction.url(url)
        var options: [EasyOption] = [
            .url(url), .protocols("http,https"), .proxy(""), .noProxy("*"), .userAgent(settings.userAgent),
            .connectTimeout(milliseconds: Int(settings.effectiveConnectTimeout * 1000)),
            .timeout(milliseconds: Int(settings.effectiveMaxTime * 1000)),
        ]
        if !settings.resolve.isEmpty { options.append(.resolve(settings.resolve.map(\.description))) }
        if !settings.connectTo.isEmpty { options.append(.connectTo(settings.connectTo)) }
        if let caFile = settings.security.caFile { options.append(.caInfo(path: caFile)) }
        if settings.security.allowsInvalidCertificates { options.append(.verifyPeer(false)) }
        if !settings.security.validatesDomainName { options.append(.verifyHost(false)) }
        let response: CurlResponse
        do {
            let handle = try EasyHandle()
            try handle.set(options)
            response = try handle.perform(maxBodyBytes: maximumSize)
        } catch {
            throw PACScriptError(message: "\(shown) could not be fetched: \(Redaction.text(error.reason))")
        }
        guard response.statusCode == 200 else {
            throw PACScriptError(message: "\(shown) answered HTTP \(response.statusCode), not 200 with a script")
        }
        return try text(response.isBodyTruncated ? nil : response.body, shown: shown)
    }

    /// A script's bytes as text.
    ///
    /// - Parameters:
    ///   - bytes: the bytes, or `nil` when there were more than ``maximumSize``.
    ///   - shown: the origin, for the error.
    /// - Throws: ``PACScriptError`` for too many bytes, a NUL byte, or bytes that are not UTF-8.
    public static func text(_ bytes: [UInt8]?, shown: String) throws(PACScriptError) -> String {
        guard let bytes, bytes.count <= maximumSize else {
            throw PACScriptError(message: "\(shown) is larger than \(maximumSize >> 20) MiB: no PAC script is")
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
