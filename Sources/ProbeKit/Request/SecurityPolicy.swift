import Curl

/// How the probe checks TLS peers, named as app developers know it (AFNetworking's and
/// Alamofire's `validatesDomainName` and `allowInvalidCertificates`).
///
/// The two switches are independent, as libcurl's are: ``allowsInvalidCertificates`` turns
/// off the chain check (`CURLOPT_SSL_VERIFYPEER` 0), ``validatesDomainName`` the host name
/// check (`CURLOPT_SSL_VERIFYHOST` 2 or 0; RFC 6125). Pinned keys are checked either way.
public struct SecurityPolicy: Sendable, Equatable {
    /// Whether the certificate must name the host asked for (`--validate-domain-name`, the
    /// default; `--no-validate-domain-name` switches it off).
    public var validatesDomainName: Bool
    /// Whether any certificate chain is accepted, trusted or not, expired or not
    /// (`--allow-invalid-certificates`).
    public var allowsInvalidCertificates: Bool
    /// A PEM file of CA certificates to trust for targets instead of the system's
    /// (`--cacert`, `CURLOPT_CAINFO`).
    public var caFile: String?
    /// Public keys of which the target's must be one (`--pinned-public-key`,
    /// `CURLOPT_PINNEDPUBLICKEY`); empty for no pinning.
    public var pinnedPublicKeys: [PublicKeyPin]
    /// A PEM file of CA certificates to trust for an `https://` proxy (`--proxy-cacert`,
    /// `CURLOPT_PROXY_CAINFO`).
    public var proxyCAFile: String?
    /// Whether an `https://` proxy's certificate goes unchecked (`--proxy-insecure`,
    /// `CURLOPT_PROXY_SSL_VERIFYPEER` and `CURLOPT_PROXY_SSL_VERIFYHOST` 0).
    public var proxyInsecure: Bool
    /// The lowest TLS version the target's handshake may use (the exporter's
    /// `tls_config.min_version`, `CURLOPT_SSLVERSION`); `nil` for libcurl's default.
    public var minimumTLSVersion: EasyOption.TLSVersion?
    /// The highest (`tls_config.max_version`); `nil` for the highest libcurl has.
    public var maximumTLSVersion: EasyOption.TLSVersion?
    /// A PEM file with the client certificate sent to the target (`tls_config.cert_file`,
    /// `CURLOPT_SSLCERT`), and one with its key (`key_file`, `CURLOPT_SSLKEY`).
    public var clientCertificate: (certificate: String, key: String?)? {
        get { clientCertificateFiles.map { ($0[0], $0.count > 1 ? $0[1] : nil) } }
        set { clientCertificateFiles = newValue.map { [$0.certificate] + ($0.key.map { [$0] } ?? []) } }
    }
    /// ``clientCertificate`` as stored: a tuple is not `Equatable`.
    private var clientCertificateFiles: [String]?

    /// Everything checked against the system's CAs, no pins.
    public static let `default` = SecurityPolicy()

    /// A policy.
    ///
    /// - Parameters: one per property; the defaults check everything.
    public init(
        validatesDomainName: Bool = true, allowsInvalidCertificates: Bool = false, caFile: String? = nil,
        pinnedPublicKeys: [PublicKeyPin] = [], proxyCAFile: String? = nil, proxyInsecure: Bool = false
    ) {
        self.validatesDomainName = validatesDomainName
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.caFile = caFile
        self.pinnedPublicKeys = pinnedPublicKeys
        self.proxyCAFile = proxyCAFile
        self.proxyInsecure = proxyInsecure
    }
}
