import CCurl

/// One option for an ``EasyHandle``, typed, named after its `CURLOPT_*` (curl_easy_setopt(3)).
///
/// Only options of libcurl 7.88.1 appear. Strings are copied by libcurl; lists are kept alive
/// by the handle. ``description`` never shows a proxy password or the value of an
/// `Authorization`/`Proxy-Authorization` header.
public enum EasyOption: Sendable, Equatable, CustomStringConvertible {
    /// The proxy protocol for `CURLOPT_PROXYTYPE`.
    public enum ProxyType: Sendable, Equatable {
        /// `CURLPROXY_HTTP`: plain HTTP to the proxy.
        case http
        /// `CURLPROXY_HTTPS`: TLS to the proxy (an "HTTPS proxy").
        case https
    }

    /// The authentication schemes for `CURLOPT_PROXYAUTH` (its `CURLAUTH_*` bits).
    public struct AuthenticationSchemes: OptionSet, Sendable, Hashable {
        /// The bits, as libcurl's `CURLAUTH_*` values.
        public let rawValue: Int
        /// Creates a set from `CURLAUTH_*` bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `CURLAUTH_BASIC` (RFC 7617), libcurl's default: sent with the first request.
        public static let basic = Self(rawValue: 1 << 0)
        /// `CURLAUTH_DIGEST` (RFC 7616).
        public static let digest = Self(rawValue: 1 << 1)
        /// `CURLAUTH_NEGOTIATE` (SPNEGO, RFC 4559): needs a Kerberos ticket.
        public static let negotiate = Self(rawValue: 1 << 2)
        /// `CURLAUTH_NTLM`.
        public static let ntlm = Self(rawValue: 1 << 3)
        /// `CURLAUTH_ANY` without `CURLAUTH_DIGEST_IE` (bit 4): libcurl asks first and picks the
        /// safest scheme the proxy offers, as `curl --proxy-anyauth`.
        public static let any = Self(rawValue: ~(1 << 4))
    }

    /// A TLS protocol version, for `CURLOPT_SSLVERSION`.
    public enum TLSVersion: Int, Sendable, Equatable, Comparable, CaseIterable {
        /// TLS 1.0 (RFC 2246).
        case tls1_0 = 10
        /// TLS 1.1 (RFC 4346).
        case tls1_1 = 11
        /// TLS 1.2 (RFC 5246).
        case tls1_2 = 12
        /// TLS 1.3 (RFC 8446).
        case tls1_3 = 13

        /// Older versions first.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The HTTP version asked for, for `CURLOPT_HTTP_VERSION`.
    public enum HTTPVersion: Sendable, Equatable {
        /// `CURL_HTTP_VERSION_1_1`.
        case http1_1
        /// `CURL_HTTP_VERSION_2TLS`: HTTP/2 where TLS negotiates it (ALPN `h2`), else HTTP/1.1.
        case http2OverTLS
    }

    /// The address family connections use, for `CURLOPT_IPRESOLVE`.
    public enum IPFamily: Sendable, Equatable {
        /// `CURL_IPRESOLVE_V4`: IPv4 addresses only.
        case ipv4
        /// `CURL_IPRESOLVE_V6`: IPv6 addresses only.
        case ipv6
    }

    /// `CURLOPT_URL`: the target, e.g. `"https://example.com/health"`.
    case url(String)
    /// `CURLOPT_PROXY`: the proxy as `scheme://host:port`; `""` means no proxy at all.
    case proxy(String)
    /// `CURLOPT_PROXYTYPE`.
    case proxyType(ProxyType)
    /// `CURLOPT_PROXYUSERNAME`: the proxy user name, not percent-encoded.
    case proxyUsername(String)
    /// `CURLOPT_PROXYPASSWORD`: the proxy password, not percent-encoded.
    case proxyPassword(String)
    /// `CURLOPT_PROXYAUTH`: the schemes libcurl may answer a proxy's 407 with.
    case proxyAuth(AuthenticationSchemes)
    /// `CURLOPT_HTTPPROXYTUNNEL`: use CONNECT also for `http://` targets.
    case proxyTunnel(Bool)
    /// `CURLOPT_NOPROXY`: hosts that bypass the proxy, comma separated; `""` bypasses none and
    /// stops libcurl from reading `no_proxy`/`NO_PROXY`.
    case noProxy(String)
    /// `CURLOPT_CAINFO`: a PEM file of CA certificates to trust for the target.
    case caInfo(path: String)
    /// `CURLOPT_PROXY_CAINFO`: a PEM file of CA certificates to trust for an HTTPS proxy.
    case proxyCAInfo(path: String)
    /// `CURLOPT_SSL_VERIFYPEER`: verify the target's certificate chain.
    case verifyPeer(Bool)
    /// `CURLOPT_SSL_VERIFYHOST`: check the target's certificate names the host (`true` sets 2,
    /// `false` sets 0).
    case verifyHost(Bool)
    /// `CURLOPT_PROXY_SSL_VERIFYPEER`: verify an HTTPS proxy's certificate chain.
    case proxyVerifyPeer(Bool)
    /// `CURLOPT_PROXY_SSL_VERIFYHOST`: check an HTTPS proxy's certificate names the proxy host.
    case proxyVerifyHost(Bool)
    /// `CURLOPT_PINNEDPUBLICKEY`: `"sha256//BASE64[;sha256//BASE64...]"` or a PEM/DER file path.
    case pinnedPublicKey(String)
    /// `CURLOPT_PROXY_PINNEDPUBLICKEY`: the same for an HTTPS proxy.
    case proxyPinnedPublicKey(String)
    /// `CURLOPT_RESOLVE`: entries `"HOST:PORT:ADDRESS[,ADDRESS]"` that replace name resolution.
    case resolve([String])
    /// `CURLOPT_CONNECTTIMEOUT_MS`: limit for the connect phase (TCP, proxy CONNECT answer,
    /// TLS handshake), milliseconds; `0` means libcurl's default of 300 seconds.
    case connectTimeout(milliseconds: Int)
    /// `CURLOPT_TIMEOUT_MS`: limit for the whole transfer, milliseconds; `0` means none.
    case timeout(milliseconds: Int)
    /// `CURLOPT_CUSTOMREQUEST`: the request method, e.g. `"DELETE"`.
    case customRequest(String)
    /// `CURLOPT_HTTPHEADER`: extra request header lines, `"Name: value"`.
    case httpHeaders([String])
    /// `CURLOPT_PROXYHEADER`: header lines for the proxy only (a CONNECT request; with the
    /// default `CURLHEADER_SEPARATE` the target never sees them).
    case proxyHeaders([String])
    /// `CURLOPT_USERAGENT`: the `User-Agent` of the request, and of a CONNECT request too.
    case userAgent(String)
    /// `CURLOPT_NOBODY`: do not fetch the body (a HEAD request for HTTP).
    case noBody(Bool)
    /// `CURLOPT_CERTINFO`: collect the peer's certificate chain (see ``CurlResponse/certificates``).
    case certInfo(Bool)
    /// `CURLOPT_VERBOSE`: collect libcurl's debug output (see ``CurlResponse/debugLog``); it is
    /// captured through `CURLOPT_DEBUGFUNCTION`, never printed.
    case verbose(Bool)
    /// `CURLOPT_PROTOCOLS_STR`: the schemes allowed, e.g. `"http,https"` (the handle's default).
    case protocols(String)
    /// `CURLOPT_FRESH_CONNECT`: open a new connection instead of reusing one.
    case freshConnect(Bool)
    /// `CURLOPT_CONNECT_TO`: `"HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT"` entries: connect
    /// elsewhere than the URL says, keeping the URL's name for TLS (SNI and the name checked)
    /// and the `Host` field (curl's `--connect-to`).
    case connectTo([String])
    /// `CURLOPT_POSTFIELDSIZE_LARGE` and `CURLOPT_COPYPOSTFIELDS`: the request body, copied by
    /// libcurl (curl's `--data-binary`); the method stays what `CURLOPT_CUSTOMREQUEST` says,
    /// else `POST`.
    case postFields([UInt8])
    /// `CURLOPT_SSLVERSION`: the lowest TLS version the target's handshake may use, and the
    /// highest (`nil`: libcurl's default, the highest it has).
    case tlsVersions(minimum: TLSVersion, maximum: TLSVersion?)
    /// `CURLOPT_SSLCERT`: a PEM file holding the client certificate sent to the target.
    case clientCertificate(path: String)
    /// `CURLOPT_SSLKEY`: a PEM file holding the client certificate's private key.
    case clientKey(path: String)
    /// `CURLOPT_HTTP_VERSION`.
    case httpVersion(HTTPVersion)
    /// `CURLOPT_ACCEPT_ENCODING`: the content codings asked for (`Accept-Encoding`), e.g.
    /// `"gzip"`; libcurl decodes a response in one of them.
    case acceptEncoding(String)
    /// `CURLOPT_IPRESOLVE`: connect over one address family only.
    case ipFamily(IPFamily)
    /// `CURLOPT_PATH_AS_IS`: send the path's `.` and `..` segments as written instead of
    /// removing them (RFC 3986 section 5.2.4), as Go's client sends them.
    case pathAsIs(Bool)

    /// The option as curl's documentation names it, e.g. `"CURLOPT_URL"`.
    public var name: String {
        switch self {
        case .url: "CURLOPT_URL"
        case .proxy: "CURLOPT_PROXY"
        case .proxyType: "CURLOPT_PROXYTYPE"
        case .proxyUsername: "CURLOPT_PROXYUSERNAME"
        case .proxyPassword: "CURLOPT_PROXYPASSWORD"
        case .proxyAuth: "CURLOPT_PROXYAUTH"
        case .proxyTunnel: "CURLOPT_HTTPPROXYTUNNEL"
        case .noProxy: "CURLOPT_NOPROXY"
        case .caInfo: "CURLOPT_CAINFO"
        case .proxyCAInfo: "CURLOPT_PROXY_CAINFO"
        case .verifyPeer: "CURLOPT_SSL_VERIFYPEER"
        case .verifyHost: "CURLOPT_SSL_VERIFYHOST"
        case .proxyVerifyPeer: "CURLOPT_PROXY_SSL_VERIFYPEER"
        case .proxyVerifyHost: "CURLOPT_PROXY_SSL_VERIFYHOST"
        case .pinnedPublicKey: "CURLOPT_PINNEDPUBLICKEY"
        case .proxyPinnedPublicKey: "CURLOPT_PROXY_PINNEDPUBLICKEY"
        case .resolve: "CURLOPT_RESOLVE"
        case .connectTimeout: "CURLOPT_CONNECTTIMEOUT_MS"
        case .timeout: "CURLOPT_TIMEOUT_MS"
        case .customRequest: "CURLOPT_CUSTOMREQUEST"
        case .httpHeaders: "CURLOPT_HTTPHEADER"
        case .proxyHeaders: "CURLOPT_PROXYHEADER"
        case .userAgent: "CURLOPT_USERAGENT"
        case .noBody: "CURLOPT_NOBODY"
        case .certInfo: "CURLOPT_CERTINFO"
        case .verbose: "CURLOPT_VERBOSE"
        case .protocols: "CURLOPT_PROTOCOLS_STR"
        case .freshConnect: "CURLOPT_FRESH_CONNECT"
        case .postFields: "CURLOPT_COPYPOSTFIELDS"
        case .tlsVersions: "CURLOPT_SSLVERSION"
        case .clientCertificate: "CURLOPT_SSLCERT"
        case .clientKey: "CURLOPT_SSLKEY"
        case .httpVersion: "CURLOPT_HTTP_VERSION"
        case .acceptEncoding: "CURLOPT_ACCEPT_ENCODING"
        case .ipFamily: "CURLOPT_IPRESOLVE"
        case .pathAsIs: "CURLOPT_PATH_AS_IS"
        case .connectTo: "CURLOPT_CONNECT_TO"
        }
    }

    /// `"CURLOPT_NAME=value"`, with secrets shown as `***`.
    public var description: String {
        switch self {
        case .url(let url): "\(name)=\(Redaction.url(url))"
        case .proxy(let url): "\(name)=\(Redaction.url(url))"
        case .proxyType(let type): "\(name)=\(type)"
        case .proxyUsername(let user): "\(name)=\(user)"
        case .proxyPassword: "\(name)=***"
        case .proxyAuth(let schemes): "\(name)=\(schemes.rawValue)"
        case .noProxy(let list): "\(name)=\(list)"
        case .caInfo(let path), .proxyCAInfo(let path): "\(name)=\(path)"
        case .pinnedPublicKey(let pins), .proxyPinnedPublicKey(let pins): "\(name)=\(pins)"
        case .resolve(let entries): "\(name)=\(entries)"
        case .connectTimeout(let milliseconds), .timeout(let milliseconds): "\(name)=\(milliseconds)"
        case .customRequest(let method): "\(name)=\(method)"
        case .httpHeaders(let lines), .proxyHeaders(let lines): "\(name)=\(lines.map { Redaction.headerLine(Substring($0)) })"
        case .userAgent(let agent): "\(name)=\(agent)"
        case .postFields(let bytes): "\(name)=\(bytes.count) bytes"
        case .tlsVersions(let minimum, let maximum): "\(name)=\(minimum)-\(maximum.map { "\($0)" } ?? "")"
        case .clientCertificate(let path), .clientKey(let path): "\(name)=\(path)"
        case .httpVersion(let version): "\(name)=\(version)"
        case .acceptEncoding(let codings): "\(name)=\(codings)"
        case .ipFamily(let family): "\(name)=\(family)"
        case .connectTo(let entries): "\(name)=\(entries)"
        case .protocols(let list): "\(name)=\(list)"
        case .proxyTunnel(let on), .verifyPeer(let on), .verifyHost(let on), .proxyVerifyPeer(let on), .pathAsIs(let on),
            .proxyVerifyHost(let on), .noBody(let on), .certInfo(let on), .verbose(let on), .freshConnect(let on):
            "\(name)=\(on ? 1 : 0)"
        }
    }
}

extension EasyOption.ProxyType {
    /// The `curl_proxytype` value for `CURLOPT_PROXYTYPE`.
    var curlValue: Int {
        switch self {
        case .http: Int(CURLPROXY_HTTP.rawValue)
        case .https: Int(CURLPROXY_HTTPS.rawValue)
        }
    }
}

extension EasyOption.TLSVersion {
    /// The `CURL_SSLVERSION_TLSv1_x` value.
    var curlMinimum: Int {
        switch self {
        case .tls1_0: CURL_SSLVERSION_TLSv1_0
        case .tls1_1: CURL_SSLVERSION_TLSv1_1
        case .tls1_2: CURL_SSLVERSION_TLSv1_2
        case .tls1_3: CURL_SSLVERSION_TLSv1_3
        }
    }

    /// The `CURL_SSLVERSION_MAX_TLSv1_x` value.
    var curlMaximum: Int {
        switch self {
        case .tls1_0: CURL_SSLVERSION_MAX_TLSv1_0
        case .tls1_1: CURL_SSLVERSION_MAX_TLSv1_1
        case .tls1_2: CURL_SSLVERSION_MAX_TLSv1_2
        case .tls1_3: CURL_SSLVERSION_MAX_TLSv1_3
        }
    }
}
