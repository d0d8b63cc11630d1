import Foundation
import Serialization
import YAML

/// A module's `oauth2` (prometheus/common `OAuth2`): the client-credentials grant (RFC 6749
/// section 4.4) that obtains the access token each probe sends the target as
/// `Authorization: Bearer TOKEN`. The token request has its own `tls_config` and `proxy_url`,
/// as prometheus/common's oauth2 round tripper builds its own transport: the module's are the
/// target's.
public struct OAuth2ClientCredentials: Sendable, Equatable {
    /// `client_id`.
    public var clientID: String
    /// `client_secret` or `client_secret_file` (read for each token request); `nil` for none.
    public var clientSecret: HTTPModuleSettings.SecretSource?
    /// `scopes`, sent space-separated as `scope` (RFC 6749 section 3.3); empty sends none.
    public var scopes: [String] = []
    /// `token_url`: where the token is asked for (`POST`, RFC 6749 section 4.4.2).
    public var tokenURL: String
    /// `endpoint_params`: more form fields of the token request, sent sorted by name (Go's
    /// `url.Values.Encode`).
    public var endpointParameters: [String: String] = [:]
    /// `tls_config.ca_file` of the token request; `nil` trusts the system's CAs.
    public var caFile: String?
    /// `tls_config.insecure_skip_verify` of the token request.
    public var insecureSkipVerify = false
    /// `tls_config.cert_file`: a client certificate for the token service, with
    /// ``clientKeyFile``.
    public var clientCertificateFile: String?
    /// `tls_config.key_file`: the key of ``clientCertificateFile``.
    public var clientKeyFile: String?
    /// `proxy_url` of the token request; `nil` connects directly (the proxy variables are not
    /// read, as prometheus/common's transport for it does not read them).
    public var proxyURL: String?

    /// Credentials with a client id and a token URL, and nothing else.
    init(clientID: String, tokenURL: String) {
        self.clientID = clientID
        self.tokenURL = tokenURL
    }

    /// Reads an `oauth2` mapping.
    ///
    /// - Throws: ``YAMLConfigError`` at an unknown key, a missing `client_id` or `token_url`,
    ///   both `client_secret` and `client_secret_file`, or a `cert_file` without `key_file`.
    init(node: YAMLNode, reader: YAMLConfigReader, place: String) throws(YAMLConfigError) {
        let keys = try reader.mapping(
            node,
            allowed: [
                "client_id", "client_secret", "client_secret_file", "scopes", "token_url", "endpoint_params", "tls_config",
                "proxy_url",
            ],
            in: "\(place) oauth2")
        guard let id = keys["client_id"] else { throw reader.error(node, "oauth2 needs client_id") }
        guard let url = keys["token_url"] else { throw reader.error(node, "oauth2 needs token_url") }
        clientID = try reader.string(id)
        tokenURL = try reader.string(url)
        if let value = keys["client_secret"], keys["client_secret_file"] != nil {
            throw reader.error(value, "at most one of client_secret and client_secret_file may be set")
        }
        if let value = keys["client_secret"] { clientSecret = .inline(try reader.string(value)) }
        if let value = keys["client_secret_file"] { clientSecret = .file(try reader.string(value)) }
        if let value = keys["scopes"] { scopes = try reader.strings(value) }
        if let value = keys["endpoint_params"] {
            for (name, text) in try reader.pairs(value, in: "\(place) oauth2 endpoint_params") {
                endpointParameters[try reader.string(name)] = try reader.string(text)
            }
        }
        if let value = keys["proxy_url"] { proxyURL = try reader.string(value) }
        if let value = keys["tls_config"] {
            let tls = try reader.mapping(
                value, allowed: ["ca_file", "insecure_skip_verify", "cert_file", "key_file"], in: "\(place) oauth2 tls_config")
            if let file = tls["ca_file"] { caFile = try reader.string(file) }
            if let skip = tls["insecure_skip_verify"] { insecureSkipVerify = try reader.bool(skip) }
            if let file = tls["cert_file"] { clientCertificateFile = try reader.string(file) }
            if let file = tls["key_file"] { clientKeyFile = try reader.string(file) }
            if (clientCertificateFile == nil) != (clientKeyFile == nil), let node = tls["cert_file"] ?? tls["key_file"] {
                throw reader.error(node, "cert_file and key_file are given together")
            }
        }
    }

    /// The token request's form body (`application/x-www-form-urlencoded`): `grant_type`,
    /// `scope`, the endpoint parameters, and with `credentialsInBody` the client's id and
    /// secret (RFC 6749 section 2.3.1), names sorted as Go's `url.Values.Encode` sorts them.
    ///
    /// - Parameters:
    ///   - secret: The client secret, read.
    ///   - credentialsInBody: Whether the client authenticates in the body instead of with
    ///     `Basic`.
    /// - Returns: e.g. `grant_type=client_credentials&scope=read+write`.
    func formBody(secret: String, credentialsInBody: Bool) -> String {
        var fields = endpointParameters
        fields["grant_type"] = "client_credentials"
        if !scopes.isEmpty { fields["scope"] = scopes.joined(separator: " ") }
        if credentialsInBody {
            fields["client_id"] = clientID
            fields["client_secret"] = secret
        }
        return fields.sorted { $0.key < $1.key }.map { Self.formEncoded($0.key) + "=" + Self.formEncoded($0.value) }
            .joined(separator: "&")
    }

    /// `Basic` with the id and secret each form-encoded first (RFC 6749 section 2.3.1, as Go's
    /// oauth2 package sends them).
    func basicAuthorization(secret: String) -> String {
        "Basic " + Data((Self.formEncoded(clientID) + ":" + Self.formEncoded(secret)).utf8).base64EncodedString()
    }

    /// `application/x-www-form-urlencoded` (Go's `url.QueryEscape`): unreserved characters as
    /// they are, a space as `+`, every other byte as `%HH`.
    static func formEncoded(_ text: String) -> String {
        PercentEncoding.encoded(text) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: " ") }
            .replacingOccurrences(of: " ", with: "+")
    }
}
