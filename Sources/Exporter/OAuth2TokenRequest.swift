import Curl
import Foundation
import JSONReader
import ProbeKit
import Serialization

/// One client-credentials token request (RFC 6749 section 4.4.2) through libcurl, for one
/// probe: blackbox builds a new HTTP client for each probe, so each probe asks for its token.
/// The client authenticates with `Basic` first and, when the token service refuses that, once
/// more with its id and secret in the form body, as Go's oauth2 package does when no auth style
/// is set (`AuthStyleAutoDetect`). Nothing the request holds (the secret, the `Basic` value,
/// the token) is ever put into a message.
struct OAuth2TokenRequest {
    let credentials: OAuth2ClientCredentials
    let userAgent: String

    /// Why no token came: a sentence for the report, without any secret.
    struct Failure: Error {
        let message: String
    }

    /// Asks for a token within `seconds`.
    ///
    /// - Returns: The `Authorization` value for the target: the token type as Go's
    ///   `Token.Type()` writes it (`Bearer` when the answer names none) and the token.
    /// - Throws: ``Failure`` when the secret file cannot be read, the token service cannot be
    ///   reached or refuses (its `error` code named, RFC 6749 section 5.2), or its answer holds
    ///   no `access_token`.
    func authorization(within seconds: Double) throws(Failure) -> String {
        let secret: String
        switch credentials.clientSecret {
        case nil: secret = ""
        case .inline(let text)?: secret = text
        case .file(let path)?:
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Failure(message: "oauth2 client_secret_file \(path) cannot be read")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var response = try send(secret: secret, credentialsInBody: false, deadline: deadline)
        if !(200...299).contains(response.statusCode) {
            response = try send(secret: secret, credentialsInBody: true, deadline: deadline)
        }
        let shownURL = Redaction.url(credentials.tokenURL)
        let answer = try? JSONDocument.parse(response.body)
        guard (200...299).contains(response.statusCode) else {
            // RFC 6749 section 5.2's `error` is printable ASCII without `"` and `\`; anything
            // else is not shown.
            var code = ""
            if let error = answer?[member: "error"]?.stringValue, !error.isEmpty,
                error.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C })
            {
                code = ": " + error
            }
            throw Failure(message: "the oauth2 token service \(shownURL) answered HTTP \(response.statusCode)\(code)")
        }
        guard let token = answer?[member: "access_token"]?.stringValue, !token.isEmpty else {
            throw Failure(message: "the oauth2 token service \(shownURL) answered without an access_token (RFC 6749 section 5.1)")
        }
        let type = answer?[member: "token_type"]?.stringValue ?? ""
        return Self.goTokenType(type) + " " + token
    }

    /// One `POST` of the form.
    private func send(secret: String, credentialsInBody: Bool, deadline: ContinuousClock.Instant) throws(Failure) -> CurlResponse
    {
        let shownURL = Redaction.url(credentials.tokenURL)
        let left = deadline - ContinuousClock.now
        let milliseconds = Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        guard milliseconds > 0 else { throw Failure(message: "no time was left to ask \(shownURL) for the oauth2 token") }
        var headers = ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"]
        if !credentialsInBody { headers.append("Authorization: " + credentials.basicAuthorization(secret: secret)) }
        var options: [EasyOption] = [
            .url(credentials.tokenURL), .protocols("http,https"), .userAgent(userAgent), .httpHeaders(headers),
            .postFields(Array(credentials.formBody(secret: secret, credentialsInBody: credentialsInBody).utf8)),
            .connectTimeout(milliseconds: milliseconds), .timeout(milliseconds: milliseconds),
        ]
        do {
            let route = try ProxyConfiguration(proxy: credentials.proxyURL ?? "").route(
                scheme: URLComponents(string: credentials.tokenURL)?.scheme ?? "https",
                host: URLComponents(string: credentials.tokenURL)?.host ?? "")
            options += route.curlOptions
        } catch {
            throw Failure(message: "oauth2 proxy_url: \(error)")
        }
        if let caFile = credentials.caFile { options.append(.caInfo(path: caFile)) }
        if credentials.insecureSkipVerify { options += [.verifyPeer(false), .verifyHost(false)] }
        if let certificate = credentials.clientCertificateFile, let key = credentials.clientKeyFile {
            options += [.clientCertificate(path: certificate), .clientKey(path: key)]
        }
        do {
            let handle = try EasyHandle()
            try handle.set(options)
            return try handle.perform(maxBodyBytes: 65_536)
        } catch {
            throw Failure(message: "the oauth2 token request to \(shownURL) failed: \(error.reason)")
        }
    }

    /// Go's `oauth2.Token.Type()`: `bearer`, `mac` and `basic` in any case as `Bearer`, `MAC`
    /// and `Basic`, none as `Bearer`, any other as written.
    static func goTokenType(_ type: String) -> String {
        switch type.lowercased() {
        case "", "bearer": "Bearer"
        case "mac": "MAC"
        case "basic": "Basic"
        default: type
        }
    }
}
