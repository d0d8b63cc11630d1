import Curl
import Digests
import Foundation
import ProbeKit
import Serialization

extension ModuleProbe {
    /// Why a module's request could not be prepared: a sentence in the module's words, without
    /// any secret, and what to change.
    struct Unprepared: Error {
        let message: String
        var hint: String?
    }

    /// The request and settings for one probe of `text`: the target read as written, the
    /// server name, the credential (an OAuth 2.0 token asked for within `timeout`), the files
    /// the module names read now, as prometheus/common reads them for each request.
    ///
    /// - Throws: ``Unprepared`` for a target the probe cannot call, a file that cannot be read,
    ///   or a token not obtained.
    func prepare(_ text: String, timeout: Double) throws(Unprepared) -> (ProbeRequest, ProbeSettings) {
        func refused(_ error: ProbeInputError) -> Unprepared { Unprepared(message: error.description) }
        var settings = self.settings
        var headers = self.headers
        // Prometheus target lists hold `|`, `{}` and quotes (field lists, JSON filters).
        var url: URL
        do { url = try ProbeRequest.targetURL(text) } catch { throw refused(error) }
        // As blackbox builds its client with them: a TLS file that cannot be read fails the
        // probe whatever the target's scheme.
        for (key, path) in [
            ("ca_file", module.http.caFile), ("cert_file", module.http.clientCertificateFile),
            ("key_file", module.http.clientKeyFile),
        ] {
            guard let path else { continue }
            guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
                throw Unprepared(message: "tls_config \(key) \(path) cannot be read", hint: "the module's tls_config \(key)")
            }
            // What OpenSSL would refuse when the handshake loads it, named here as the module's
            // file, not as the target's handshake failing.
            let holds =
                key == "key_file"
                ? String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY-----")
                : ((try? PEMCertificates.count(in: bytes)) ?? 0) > 0
            guard holds else {
                throw Unprepared(
                    message: "tls_config \(key) \(path) holds no PEM \(key == "key_file" ? "private key" : "certificate")",
                    hint: "the module's tls_config \(key)")
            }
        }
        // tls_config.server_name, as Go's tls.Config.ServerName: the URL names the server
        // name, so TLS asks for and checks it, while the connection goes to the target's host
        // (CURLOPT_CONNECT_TO) and Host keeps the target's authority.
        if let serverName = module.http.serverName, url.scheme?.lowercased() == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host
        {
            let port = components.port ?? 443
            let bracketed = HostPort.bracketed(host)
            components.host = serverName
            if let renamed = components.url {
                url = renamed
                settings.connectTo = ["\(serverName):\(port):\(bracketed):\(port)"]
                if !headers.contains(where: { $0.name.lowercased() == "host" }) {
                    headers.append(
                        RequestHeader(name: "Host", value: components.port == nil ? bracketed : "\(bracketed):\(port)"))
                }
            }
        }
        if let credential = module.http.credential, !headers.contains(where: { $0.name.lowercased() == "authorization" }) {
            headers.append(try authorization(credential, within: timeout))
        }
        for (name, path) in module.http.headerFiles {
            guard let text = HTTPModuleSettings.SecretSource.file(path).read() else {
                throw Unprepared(
                    message: "http_headers file \(path) for \(name) cannot be read", hint: "the module's http_headers")
            }
            do {
                var secret = try RequestHeader(parsing: "\(name): \(text)", option: "http_headers")
                secret.isSecret = true
                headers.append(secret)
            } catch {
                // The error would quote the value: a secret.
                throw Unprepared(message: "http_headers file \(path) holds a line break or NUL", hint: "the file")
            }
        }
        var request: ProbeRequest
        do {
            request = try ProbeRequest(url: url, method: module.http.method, headers: headers, expectations: expectations)
        } catch {
            throw refused(error)
        }
        request.body = module.http.body.map { Array($0.utf8) }
        if let file = module.http.bodyFile {
            // Read for each probe, as blackbox opens it for each request.
            guard let bytes = FileManager.default.contents(atPath: file) else {
                throw Unprepared(message: "body_file \(file) cannot be read", hint: "the module's body_file")
            }
            request.body = Array(bytes)
        }
        return (request, settings)
    }

    /// The `Authorization` field of a module's credential, its files read now (prometheus/common
    /// reads them for each request, so a rotated secret is used at once), an `oauth2` token
    /// asked for within `timeout` (as blackbox's client asks before its request).
    private func authorization(
        _ credential: HTTPModuleSettings.TargetCredential, within timeout: Double
    ) throws(Unprepared) -> RequestHeader {
        func read(_ secret: HTTPModuleSettings.SecretSource, _ key: String) throws(Unprepared) -> String {
            guard let text = secret.read() else {
                let path = if case .file(let path) = secret { path } else { "" }
                throw Unprepared(message: "\(key) \(path) cannot be read", hint: "the module's \(key)")
            }
            return text
        }
        let value: String
        let key: String
        switch credential {
        case .basic(let username, let password):
            let pair =
                try read(username, "basic_auth username_file") + ":"
                + (try password.map { (secret) throws(Unprepared) in try read(secret, "basic_auth password_file") } ?? "")
            value = "Basic " + Data(pair.utf8).base64EncodedString()
            key = "basic_auth"
        case .scheme(let type, let credentials):
            value = type + " " + (try read(credentials, "authorization credentials_file"))
            key = "authorization"
        case .oauth2(let oauth2):
            do {
                value = try OAuth2TokenRequest(credentials: oauth2, userAgent: settings.userAgent).authorization(within: timeout)
            } catch {
                throw Unprepared(message: error.message, hint: "the module's oauth2 client_id, client_secret and token_url")
            }
            key = "oauth2"
        }
        // A value with a line break could add a header field of its own; the error would quote it.
        guard let header = try? RequestHeader(parsing: "Authorization: " + value, option: key) else {
            throw Unprepared(message: "the \(key) credential holds a line break or NUL", hint: "the module's \(key)")
        }
        return header
    }
}
