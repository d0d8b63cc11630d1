import Curl
import Foundation
import ProbeKit
import Serialization
import YAML

/// The `http:` section of a module, as blackbox_exporter reads it (config/config.go
/// `HTTPProbe`, prometheus/common `HTTPClientConfig`), plus this exporter's own keys under
/// `stagebuild:`.
public struct HTTPModuleSettings: Sendable {
    /// A header field and the pattern its values must (or must not) match.
    public struct HeaderMatch: Sendable {
        /// The field name.
        public var header: String
        /// The pattern, RE2 syntax.
        public var regexp: String
        /// Whether a missing field passes.
        public var allowMissing: Bool
    }

    /// Where a credential's secret is: in the config, or in a file read for each probe, as
    /// prometheus/common reads its `*_file` keys on every request (a rotated secret is used at
    /// once), white space around it trimmed.
    public enum SecretSource: Sendable, Equatable {
        /// Written in the config.
        case inline(String)
        /// The path of a file that holds it.
        case file(String)

        /// The secret now: as written, or the file's text with white space around it trimmed;
        /// `nil` when the file cannot be read.
        func read() -> String? {
            switch self {
            case .inline(let text): text
            case .file(let path):
                (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
    }

    /// The `Authorization` a module sends the target (prometheus/common `HTTPClientConfig`, at
    /// most one of them): `basic_auth`, `authorization`, or the older `bearer_token` and
    /// `bearer_token_file`, or `oauth2`.
    public enum TargetCredential: Sendable, Equatable {
        /// `basic_auth`: `Basic` with the user name and password (RFC 7617).
        case basic(username: SecretSource, password: SecretSource?)
        /// `authorization` (`type`, `Bearer` by default) or `bearer_token`: the scheme and its
        /// credentials.
        case scheme(type: String, credentials: SecretSource)
        /// `oauth2`: a token asked for with the client-credentials grant before each probe.
        case oauth2(OAuth2ClientCredentials)
    }

    /// `valid_status_codes`; empty means any 2xx, as blackbox.
    public var validStatusCodes: [Int] = []
    /// `method`, `GET` by default.
    public var method = "GET"
    /// `body`: sent with the request, whatever the method.
    public var body: String?
    /// `headers`, in the file's order, then `http_headers`' `values`.
    public var headers: [(name: String, value: String)] = []
    /// `http_headers`' `secrets`: sent to the target's origin only, never shown.
    public var secretHeaders: [(name: String, value: String)] = []
    /// `http_headers`' `files`: a field whose value is a file's text, read for each probe, white
    /// space around it trimmed (prometheus/common reads them on every request); secrets as
    /// ``secretHeaders`` are.
    public var headerFiles: [(name: String, path: String)] = []
    /// `follow_redirects`, or the older `no_follow_redirects` negated (blackbox follows
    /// redirects by default).
    public var followsRedirects = true
    /// `fail_if_ssl`: a target reached over TLS fails.
    public var failIfSSL = false
    /// `fail_if_not_ssl`: a target reached without TLS fails.
    public var failIfNotSSL = false
    /// `fail_if_body_matches_regexp`: RE2 syntax, as Go's regexp.
    public var failIfBodyMatches: [String] = []
    /// `fail_if_body_not_matches_regexp`: each must match.
    public var failIfBodyNotMatches: [String] = []
    /// `fail_if_header_matches`.
    public var failIfHeaderMatches: [HeaderMatch] = []
    /// `fail_if_header_not_matches`.
    public var failIfHeaderNotMatches: [HeaderMatch] = []
    /// The credentials sent to the target; `nil` for none. Only the target's origin gets them:
    /// a redirect to another origin is sent without (as curl and Go's client drop them).
    public var credential: TargetCredential?
    /// `proxy_url`; `nil` for none.
    public var proxyURL: String?
    /// `no_proxy`: the hosts that bypass `proxy_url`, curl's list syntax.
    public var noProxy: String?
    /// `proxy_from_environment`: the proxy variables decide, as curl reads them.
    public var proxyFromEnvironment = false
    /// `proxy_connect_header`: fields sent with CONNECT only.
    public var proxyConnectHeaders: [(name: String, value: String)] = []
    /// `tls_config.insecure_skip_verify`: Go's switch skips both the chain and the name.
    public var insecureSkipVerify = false
    /// `tls_config.ca_file`.
    public var caFile: String?
    /// `tls_config.server_name`: the name TLS asks for (SNI) and checks, instead of the
    /// target's host, which is still where the probe connects and what `Host` says.
    public var serverName: String?
    /// `preferred_ip_protocol`: `ip4` or `ip6`; libcurl tries every address of the name either way.
    public var preferredIPProtocol: String?
    /// `ip_protocol_fallback`.
    public var ipProtocolFallback = true
    /// `stagebuild.validate_domain_name`: `false` checks the chain but not the name, which
    /// `insecure_skip_verify` cannot say.
    public var validatesDomainName = true
    /// `stagebuild.pinned_public_keys`: `sha256//BASE64` pins, as `--pinned-public-key`.
    public var pinnedPublicKeys: [String] = []
    /// `stagebuild.apple_clients`: the stacks to give verdicts for (`urlsession`, …); empty for all.
    public var appleClients: [String] = []
    /// `stagebuild.pac_url`: the PAC script that chooses each probe's proxy (an `http(s)://`
    /// URL fetched directly for each probe, within its timeout, or a `file:` URL or path read
    /// for each probe), as the probe's `--pac`; `nil` for none. Not with `proxy_url`.
    public var pacURL: String?
    /// `body_size_limit` in bytes as written, `0` for none; `nil` when not written. A body
    /// longer than a limit written fails the probe, as Go's `MaxBytesReader` fails blackbox's;
    /// without one, body patterns read at most 64 MiB (``Expectations/defaultBodySizeLimit``).
    public var bodySizeLimit: Int?
    /// `valid_http_versions`: the protocol versions a response may come in, as Go writes
    /// them (`HTTP/1.1`, `HTTP/2.0`); empty for any.
    public var validHTTPVersions: [String] = []
    /// `accept_any_response`: any status passes the status check.
    public var acceptsAnyResponse = false
    /// `body_file`: a file whose bytes are the request body.
    public var bodyFile: String?
    /// `enable_http2` (true by default, as prometheus/common's): `false` asks for HTTP/1.1.
    public var enablesHTTP2 = true
    /// `compression`: the content coding asked for and decoded (`gzip`, `br`, `deflate`,
    /// `identity`); `nil` for none.
    public var compression: String?
    /// `tls_config.min_version` and `max_version` (`TLS10` … `TLS13`).
    public var minimumTLSVersion: EasyOption.TLSVersion?
    /// See ``minimumTLSVersion``.
    public var maximumTLSVersion: EasyOption.TLSVersion?
    /// `tls_config.cert_file` and `key_file`: the client certificate sent to the target.
    public var clientCertificateFile: String?
    /// See ``clientCertificateFile``.
    public var clientKeyFile: String?
    /// The keys this module holds that this exporter cannot act on, each with why: the module
    /// loads, is listed as not run, and `/probe` refuses it naming them (never a key ignored).
    public var notActedOn: [(key: String, why: String)] = []

    init() {}

    /// Keys blackbox knows that this exporter cannot act on, with why.
    static let unsupported: [String: String] = [
        "fail_if_body_json_not_matches_cel": "the exporter has no CEL interpreter",
        "use_proxy_dns": "names behind a proxy are always resolved by the proxy",
    ]

    /// The fields `http_headers` may not set, lower-cased: prometheus/common's `reservedHeaders`
    /// (the client and its credentials set them).
    static let reservedHeaders: Set<String> = [
        "authorization", "host", "content-encoding", "content-length", "content-type", "user-agent", "connection",
        "keep-alive", "proxy-authenticate", "proxy-authorization", "www-authenticate", "accept-encoding",
        "x-prometheus-remote-write-version", "x-prometheus-remote-read-version", "x-prometheus-scrape-timeout-seconds",
        "x-amz-date", "x-amz-security-token", "x-amz-content-sha256",
    ]

    init(node: YAMLNode, reader: YAMLConfigReader, module: String) throws(YAMLConfigError) {
        let place = "module \(module) http"
        let known: Set<String> = [
            "valid_status_codes", "method", "headers", "body", "no_follow_redirects", "fail_if_ssl", "fail_if_not_ssl",
            "fail_if_body_matches_regexp", "fail_if_body_not_matches_regexp", "fail_if_header_matches",
            "fail_if_header_not_matches", "proxy_url", "no_proxy", "proxy_from_environment", "proxy_connect_header",
            "tls_config", "preferred_ip_protocol", "ip_protocol_fallback", "stagebuild", "body_size_limit",
            "follow_redirects", "basic_auth", "authorization", "bearer_token", "bearer_token_file",
            "valid_http_versions", "accept_any_response", "body_file", "skip_resolve_phase_with_proxy", "enable_http2",
            "compression", "oauth2", "http_headers",
        ]
        let fields = try reader.mapping(node, allowed: known.union(Self.unsupported.keys), in: place)
        for (key, why) in Self.unsupported where fields[key] != nil { notActedOn.append((key, why)) }
        notActedOn.sort { $0.key < $1.key }
        if let versions = fields["valid_http_versions"] {
            validHTTPVersions = try reader.strings(versions)
            for (index, version) in validHTTPVersions.enumerated() where !version.hasPrefix("HTTP/") {
                throw reader.error(
                    versions.sequence?[index] ?? versions, "valid_http_versions holds versions such as HTTP/1.1, not '\(version)'"
                )
            }
        }
        if let value = fields["accept_any_response"] { acceptsAnyResponse = try reader.bool(value) }
        if let value = fields["enable_http2"] { enablesHTTP2 = try reader.bool(value) }
        if let value = fields["compression"] {
            let coding = try reader.string(value).lowercased()
            guard ["gzip", "br", "deflate", "identity", ""].contains(coding) else {
                throw reader.error(value, "compression is gzip, br, deflate or identity, not '\(coding)'")
            }
            compression = coding.isEmpty ? nil : coding
        }
        if let value = fields["body_file"] {
            guard fields["body"] == nil else { throw reader.error(value, "at most one of body and body_file may be set") }
            bodyFile = try reader.string(value)
        }
        // The probe never resolves a name it sends to a proxy: true is what it does; false (blackbox's
        // default) would resolve it here first, which it cannot be made to do.
        if let value = fields["skip_resolve_phase_with_proxy"], !(try reader.bool(value)) {
            notActedOn.append(("skip_resolve_phase_with_proxy", "the probe lets the proxy resolve the target's name"))
        }
        if let codes = fields["valid_status_codes"] {
            for text in try reader.strings(codes) {
                guard let code = Int(text), (100...599).contains(code) else {
                    throw reader.error(codes, "valid_status_codes holds status codes 100-599, not '\(text)'")
                }
                validStatusCodes.append(code)
            }
        }
        if let value = fields["method"] { method = try reader.string(value).uppercased() }
        if let value = fields["body_size_limit"] {
            let text = try reader.string(value)
            guard let limit = ByteCount.parse(text) else {
                throw reader.error(value, "body_size_limit is a size such as 10MB or 1048576, not '\(text)'")
            }
            bodySizeLimit = limit
        }
        if let value = fields["body"] { body = try reader.string(value) }
        if let value = fields["headers"] {
            for (key, header) in try reader.pairs(value, in: "\(place) headers") {
                headers.append((try Self.fieldName(key, reader, "headers"), try reader.string(header)))
                try Self.checkFieldValue(headers[headers.count - 1], at: header, reader, "headers")
            }
        }
        if let value = fields["http_headers"] {
            for (key, header) in try reader.pairs(value, in: "\(place) http_headers") {
                let name = try Self.fieldName(key, reader, "http_headers")
                if Self.reservedHeaders.contains(name.lowercased()) {
                    throw reader.error(key, "http_headers may not set \(name): the probe sets it")
                }
                let kinds = try reader.mapping(header, allowed: ["values", "secrets", "files"], in: "http_headers \(name)")
                for text in try kinds["values"].map(reader.strings) ?? [] {
                    headers.append((name, text))
                    try Self.checkFieldValue((name, text), at: header, reader, "http_headers")
                }
                for text in try kinds["secrets"].map(reader.strings) ?? [] {
                    secretHeaders.append((name, text))
                    try Self.checkFieldValue((name, text), at: header, reader, "http_headers")
                }
                for path in try kinds["files"].map(reader.strings) ?? [] { headerFiles.append((name, path)) }
            }
        }
        // prometheus/common's `follow_redirects`, and blackbox's older `no_follow_redirects`,
        // which wins when both are given (blackbox's config.go: HTTPProbe.UnmarshalYAML).
        if let value = fields["follow_redirects"] { followsRedirects = try reader.bool(value) }
        if let value = fields["no_follow_redirects"] { followsRedirects = !(try reader.bool(value)) }
        if let value = fields["fail_if_ssl"] { failIfSSL = try reader.bool(value) }
        if let value = fields["fail_if_not_ssl"] { failIfNotSSL = try reader.bool(value) }
        if let value = fields["fail_if_body_matches_regexp"] {
            failIfBodyMatches = try Self.patterns(value, reader, "fail_if_body_matches_regexp")
        }
        if let value = fields["fail_if_body_not_matches_regexp"] {
            failIfBodyNotMatches = try Self.patterns(value, reader, "fail_if_body_not_matches_regexp")
        }
        if let value = fields["fail_if_header_matches"] { failIfHeaderMatches = try Self.headerMatches(value, reader) }
        if let value = fields["fail_if_header_not_matches"] { failIfHeaderNotMatches = try Self.headerMatches(value, reader) }
        if let value = fields["proxy_url"] {
            let text = try reader.string(value)
            // Read now as each probe will read it, so a bad one stops the config, at its place.
            do { _ = try ProxyServer(parsing: text, source: .option("proxy_url")) } catch {
                throw reader.error(value, error.description)
            }
            proxyURL = text
        }
        if let value = fields["no_proxy"] { noProxy = try reader.string(value) }
        if let value = fields["proxy_from_environment"] { proxyFromEnvironment = try reader.bool(value) }
        if let value = fields["proxy_connect_header"] {
            // prometheus/common: a map of header name to a list of values.
            for (key, values) in try reader.pairs(value, in: "\(place) proxy_connect_header") {
                let name = try Self.fieldName(key, reader, "proxy_connect_header")
                for text in try reader.strings(values) {
                    proxyConnectHeaders.append((name, text))
                    try Self.checkFieldValue((name, text), at: values, reader, "proxy_connect_header")
                }
            }
        }
        // As blackbox: an Accept-Encoding header must list the compression asked for (or `*`).
        if let compression, let header = headers.first(where: { $0.name.lowercased() == "accept-encoding" }),
            let node = fields["compression"]
        {
            let codings = header.value.split(separator: ",").map {
                $0.prefix { $0 != ";" }.trimmingHTTPWhitespace().lowercased()
            }
            guard codings.contains(compression) || codings.contains("*") else {
                throw reader.error(
                    node, "compression \(compression) is not among the \(header.name) header's codings (\(header.value))")
            }
        }
        credential = try Self.credential(fields, reader, place: place)
        if let value = fields["tls_config"] {
            let tls = try reader.mapping(
                value,
                allowed: [
                    "insecure_skip_verify", "ca_file", "server_name", "cert_file", "key_file", "min_version", "max_version",
                ],
                in: "\(place) tls_config")
            if let skip = tls["insecure_skip_verify"] { insecureSkipVerify = try reader.bool(skip) }
            /// Go's names (prometheus/common `TLSVersions`).
            func version(_ key: String) throws(YAMLConfigError) -> EasyOption.TLSVersion? {
                guard let node = tls[key] else { return nil }
                let text = try reader.string(node)
                guard let number = Int(text.dropFirst(3)), text.hasPrefix("TLS"),
                    let found = EasyOption.TLSVersion(rawValue: number)
                else { throw reader.error(node, "\(key) is TLS10, TLS11, TLS12 or TLS13, not '\(text)'") }
                return found
            }
            minimumTLSVersion = try version("min_version")
            maximumTLSVersion = try version("max_version")
            if let minimum = minimumTLSVersion, let maximum = maximumTLSVersion, maximum < minimum, let node = tls["max_version"]
            {
                throw reader.error(node, "max_version is lower than min_version")
            }
            if let file = tls["cert_file"] { clientCertificateFile = try reader.string(file) }
            if let file = tls["key_file"] { clientKeyFile = try reader.string(file) }
            if (clientCertificateFile == nil) != (clientKeyFile == nil), let node = tls["cert_file"] ?? tls["key_file"] {
                throw reader.error(node, "cert_file and key_file are given together")
            }
            if let file = tls["ca_file"] { caFile = try reader.string(file) }
            if let name = tls["server_name"] { serverName = try reader.string(name) }
        }
        if let value = fields["preferred_ip_protocol"] {
            let text = try reader.string(value)
            guard text == "ip4" || text == "ip6" else { throw reader.error(value, "preferred_ip_protocol is ip4 or ip6") }
            preferredIPProtocol = text
        }
        if let value = fields["ip_protocol_fallback"] { ipProtocolFallback = try reader.bool(value) }
        if let value = fields["stagebuild"] {
            let own = try reader.mapping(
                value, allowed: ["validate_domain_name", "pinned_public_keys", "apple_clients", "pac_url"],
                in: "\(place) stagebuild")
            if let url = own["pac_url"] {
                let text = try reader.string(url)
                guard !text.isEmpty else { throw reader.error(url, "pac_url is a URL or a path, not empty") }
                if let scheme = PACScriptSource.unsupportedScheme(in: text) {
                    throw reader.error(url, "pac_url is an http://, https:// or file: URL or a path, not a \(scheme): URL")
                }
                guard proxyURL == nil, !proxyFromEnvironment else {
                    throw reader.error(url, "pac_url chooses each probe's proxy: leave out proxy_url and proxy_from_environment")
                }
                pacURL = text
            }
            if let flag = own["validate_domain_name"] { validatesDomainName = try reader.bool(flag) }
            if let pins = own["pinned_public_keys"] {
                pinnedPublicKeys = try reader.strings(pins)
                for (index, pin) in pinnedPublicKeys.enumerated() {
                    do { _ = try PublicKeyPin(parsing: pin) } catch {
                        throw reader.error(pins.sequence?[index] ?? pins, "pinned_public_keys: \(error.reason)")
                    }
                }
            }
            if let clients = own["apple_clients"] {
                appleClients = try reader.strings(clients)
                for (index, name) in appleClients.enumerated() where AppleClient(option: name) == nil {
                    throw reader.error(
                        clients.sequence?[index] ?? clients,
                        "apple_clients are urlsession, afnetworking3, afnetworking4 and alamofire5, not '\(name)'")
                }
            }
        }
    }

    /// The module's credential, as prometheus/common's `HTTPClientConfig.Validate` allows it:
    /// at most one kind, a secret given once, and no `authorization` of type `Basic`.
    private static func credential(
        _ fields: [String: YAMLNode], _ reader: YAMLConfigReader, place: String
    ) throws(YAMLConfigError) -> TargetCredential? {
        let given = ["basic_auth", "authorization", "bearer_token", "bearer_token_file", "oauth2"].compactMap { fields[$0] }
        // The error points at the one written last: the one that adds to the first.
        if given.count > 1, let last = given.max(by: { ($0.mark.line, $0.mark.column) < ($1.mark.line, $1.mark.column) }) {
            throw reader.error(
                last, "at most one of basic_auth, authorization, bearer_token, bearer_token_file and oauth2 may be set")
        }
        if let node = fields["oauth2"] { return .oauth2(try OAuth2ClientCredentials(node: node, reader: reader, place: place)) }
        /// A secret written inline or in a file, not both.
        func secret(_ keys: [String: YAMLNode], _ inline: String, _ file: String) throws(YAMLConfigError) -> SecretSource? {
            if let value = keys[inline], keys[file] != nil {
                throw reader.error(value, "at most one of \(inline) and \(file) may be set")
            }
            if let value = keys[inline] { return .inline(try reader.string(value)) }
            if let value = keys[file] { return .file(try reader.string(value)) }
            return nil
        }
        if let node = fields["basic_auth"] {
            let keys = try reader.mapping(
                node, allowed: ["username", "username_file", "password", "password_file"], in: "\(place) basic_auth")
            let username = try secret(keys, "username", "username_file") ?? .inline("")
            return .basic(username: username, password: try secret(keys, "password", "password_file"))
        }
        if let node = fields["authorization"] {
            let keys = try reader.mapping(
                node, allowed: ["type", "credentials", "credentials_file"], in: "\(place) authorization")
            let type = try keys["type"].map { (value) throws(YAMLConfigError) in try reader.string(value) } ?? "Bearer"
            if type.lowercased() == "basic", let value = keys["type"] {
                throw reader.error(value, "authorization type cannot be Basic: use basic_auth")
            }
            guard let credentials = try secret(keys, "credentials", "credentials_file") else { return nil }
            return .scheme(type: type, credentials: credentials)
        }
        if let value = fields["bearer_token"] { return .scheme(type: "Bearer", credentials: .inline(try reader.string(value))) }
        if let value = fields["bearer_token_file"] {
            return .scheme(type: "Bearer", credentials: .file(try reader.string(value)))
        }
        return nil
    }

    /// A field name (RFC 9110 token), or an error at its place naming `key`.
    private static func fieldName(_ node: YAMLNode, _ reader: YAMLConfigReader, _ key: String) throws(YAMLConfigError) -> String {
        let name = try reader.string(node)
        guard HTTPToken.isToken(Substring(name)) else {
            throw reader.error(node, "\(key): '\(ControlCharacters.escaped(name))' is no field name (RFC 9110 token)")
        }
        return name
    }

    /// An error at `node` when a field's value holds CR, LF or NUL; the value is not shown (it
    /// may be a secret).
    private static func checkFieldValue(
        _ field: (name: String, value: String), at node: YAMLNode, _ reader: YAMLConfigReader, _ key: String
    ) throws(YAMLConfigError) {
        guard HTTPToken.isFieldValue(Substring(field.value)) else {
            throw reader.error(node, "\(key): the value of \(field.name) holds a line break or NUL")
        }
    }

    /// RE2 patterns (Go's regexp syntax), each compiled now so that a bad one is an error at
    /// its place; `one` reads a single scalar.
    private static func patterns(
        _ node: YAMLNode, _ reader: YAMLConfigReader, _ key: String, one: Bool = false
    ) throws(YAMLConfigError) -> [String] {
        let texts = one ? [try reader.string(node)] : try reader.strings(node)
        for (index, text) in texts.enumerated() {
            do { _ = try BodyPattern(text) } catch {
                throw reader.error(one ? node : node.sequence?[index] ?? node, "\(key): \(error.reason)")
            }
        }
        return texts
    }

    private static func headerMatches(
        _ node: YAMLNode, _ reader: YAMLConfigReader
    ) throws(YAMLConfigError) -> [HeaderMatch] {
        guard let items = node.sequence else { throw reader.error(node, "expected a list of {header, regexp}") }
        var matches: [HeaderMatch] = []
        for item in items {
            let fields = try reader.mapping(item, allowed: ["header", "regexp", "allow_missing"], in: "a header match")
            guard let header = fields["header"], let regexp = fields["regexp"] else {
                throw reader.error(item, "a header match needs header and regexp")
            }
            var allowMissing = false
            if let value = fields["allow_missing"] { allowMissing = try reader.bool(value) }
            matches.append(
                HeaderMatch(
                    header: try fieldName(header, reader, "a header match"),
                    regexp: try patterns(regexp, reader, "regexp", one: true)[0], allowMissing: allowMissing))
        }
        return matches
    }
}
