import Curl
import Foundation

/// The secrets of a run, and a scrubber that replaces them with `***` in any text.
///
/// Structural redaction (`user:***@host` in URLs, never printing credential headers) comes
/// first; this is the safety net under it: every report and error message passes through
/// ``redact(_:)``. Secrets shorter than ``minimumLength`` characters are not scrubbed, as
/// replacing them everywhere would garble every text.
public struct SecretRedactor: Sendable, Equatable {
    /// Secrets shorter than this are not scrubbed.
    public static let minimumLength = 3

    /// The secrets, longest first, so that a secret containing another is replaced whole.
    public private(set) var secrets: [String]

    /// A scrubber for these secrets.
    ///
    /// - Parameter secrets: passwords and credential values; short ones are ignored.
    public init(secrets: [String]) {
        self.secrets = Array(Set(secrets.filter { $0.count >= Self.minimumLength })).sorted {
            $0.count != $1.count ? $0.count > $1.count : $0 < $1
        }
    }

    /// The secrets of a run: the proxy passwords of `--proxy` and the proxy variables (decoded
    /// and as written), URL passwords of the targets, and the values of `Authorization` and
    /// `Proxy-Authorization` headers (whole, and the credentials after the scheme word).
    ///
    /// - Parameters:
    ///   - settings: the run's settings.
    ///   - requests: the run's requests.
    /// - Returns: the scrubber.
    public static func forRun(settings: ProbeSettings, requests: [ProbeRequest]) -> SecretRedactor {
        var secrets: [String] = []
        var proxyTexts: [String] = []
        if let proxy = settings.proxy.proxy { proxyTexts.append(proxy) }
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            if let value = settings.proxy.environment[name] { proxyTexts.append(value) }
        }
        for text in proxyTexts {
            do {
                if let password = try ProxyServer(parsing: text, source: .option("--proxy")).credentials?.password {
                    secrets.append(password)
                }
            } catch {
                // Text that does not parse may still hold a password with a raw `#`, `/` or `?`.
                if let range = Redaction.loosePasswordRange(in: text) { secrets.append(String(text[range])) }
            }
            secrets += writtenPasswords(in: text)
        }
        for request in requests {
            if let password = request.userInfoPassword { secrets.append(password) }
            secrets += writtenPasswords(in: request.url.absoluteString)
            for header in request.headers where header.isCredential {
                secrets.append(header.value)
                if let space = header.value.firstIndex(of: " ") {
                    secrets.append(
                        header.value[header.value.index(after: space)...].trimmingCharacters(
                            in: CharacterSet(charactersIn: " \t")))
                }
            }
        }
        return SecretRedactor(secrets: secrets)
    }

    /// The password of `scheme://user:password@host` (or `user:password@host`) as written,
    /// still percent-encoded.
    private static func writtenPasswords(in text: String) -> [String] {
        Redaction.passwordRange(in: text).map { [String(text[$0])] } ?? []
    }

    /// `text` with every secret replaced by `***`.
    ///
    /// - Parameter text: any text meant for output.
    /// - Returns: the scrubbed text.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }
}
