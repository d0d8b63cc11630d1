import Curl
import Foundation
import JSONReader
import ProbeKit
import Serialization

/// One client-credentials token request (RFC 6749 section 4.4.2) through libcurl, for one
/// probe: blackbox builds a new HTTP client for each probe, so each probe asks for its token.
/// The client authenticates with `Basic` first and, when that attempt fails, once more with its
/// id and secret in the form body, as Go's oauth2 package does when no auth style is set
/// (`AuthStyleAutoDetect`). Nothing the request holds (the secret, the `Basic` value,
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
        guard let secret = credentials.clientSecret.map({ $0.read() }) ?? "" else {
            let path = if case .file(let path)? = credentials.clientSecret { path } else { "" }
            throw Failure(message: "oauth2 client_secret_file \(path) cannot be read")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        // Go's auto-detection: any failure with Basic is tried once more with the credentials
        // in the body, and that attempt's failure is the one told.
        do {
            return try attempt(secret: secret, credentialsInBody: false, deadline: deadline)
        } catch {
            // A first attempt that used up the time (a slow service) is the failure to tell.
            guard ContinuousClock.now < deadline else { throw error }
            return try attempt(secret: secret, credentialsInBody: true, deadline: deadline)
        }
    }

    /// One token request and its answer read as Go's oauth2 package reads it: a 2xx whose body
    /// is JSON (RFC 6749 section 5.1), or form fields when the answer says it is
    /// `application/x-www-form-urlencoded` or `text/plain` (as some services answer).
    private func attempt(secret: String, credentialsInBody: Bool, deadline: ContinuousClock.Instant) throws(Failure) -> String {
        let response = try send(secret: secret, credentialsInBody: credentialsInBody, deadline: deadline)
        let shownURL = Redaction.url(credentials.tokenURL)
        let contentType = response.headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        var fields: [String: String] = [:]
        if contentType.hasPrefix("application/x-www-form-urlencoded") || contentType.hasPrefix("text/plain") {
            fields = PercentEncoding.formFields(Substring(String(decoding: response.body, as: UTF8.self)))
        } else if let members = (try? JSONDocument.parse(response.body))?.members {
            for (name, value) in members where fields[name] == nil { fields[name] = value.stringValue }
        }
        guard (200...299).contains(response.statusCode) else {
            // RFC 6749 section 5.2's `error` is printable ASCII without `"` and `\`; anything
            // else is not shown.
            var code = ""
            if let error = fields["error"], !error.isEmpty,
                error.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C })
            {
                code = ": " + error
            }
            throw Failure(message: "the oauth2 token service \(shownURL) answered HTTP \(response.statusCode)\(code)")
        }
        guard let token = fields["access_token"], !token.isEmpty else {
            throw Failure(message: "the oauth2 token service \(shownURL) answered without an access_token (RFC 6749 section 5.1)")
        }
        return Self.goTokenType(fields["token_type"] ?? "") + " " + token
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
            let tokenURL = URLComponents(string: credentials.tokenURL)
            let route = try ProxyConfiguration(proxy: credentials.proxyURL ?? "").route(
                scheme: tokenURL?.scheme ?? "https", host: tokenURL?.host ?? "")
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
