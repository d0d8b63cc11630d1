import Curl

extension CurlResponse {
    /// Whether the proxy's answer to CONNECT ended with a 2xx status and a complete header
    /// block, so the tunnel was open: libcurl 7.88.1 logs "CONNECT phase completed" then
    /// (`lib/http_proxy.c`). Its CONNECT status code is set as soon as the status line arrives,
    /// so a proxy that never ends its headers has a code but no tunnel.
    var completedConnect: Bool { debugLog.contains("CONNECT phase completed") }

    /// The response with its TLS facts moved aside when they are an `https://` proxy's: libcurl
    /// lists (`CURLINFO_CERTINFO`) the chain of the last handshake that finished, and its
    /// session (`CURLINFO_TLS_SSL_PTR`) is the proxy's until the target's is up; so until the
    /// handshake with the target finished — libcurl logs "Server certificate:" then (it needs
    /// `CURLOPT_VERBOSE`), and "Proxy certificate:" for the proxy's — both are the proxy's.
    ///
    /// - Parameter httpsProxy: whether the call went through an `https://` proxy.
    /// - Returns: the response with the target's certificates and session only, and the proxy's chain.
    func separatingProxyCertificates(httpsProxy: Bool) -> (response: CurlResponse, proxyChain: [PeerCertificate]) {
        guard httpsProxy, !debugLog.contains("Server certificate:") else { return (self, []) }
        var response = self
        response.certificates = []
        response.tlsSession = nil
        return (response, certificates)
    }

    /// The TLS alert this client sent about the target's certificate inside a tunnel, as
    /// libcurl logs it (`TLS alert, unknown CA (560)`: 512 plus the alert's number, RFC 8446
    /// section 6.2): OpenSSL refused the certificate. libcurl 7.88.1 reports such a failure of
    /// TLS inside an `https://` proxy's TLS only as `SSL_ERROR_SYSCALL`; the alert is what says
    /// that the chain check ended the handshake. `nil` without one.
    var tunnelledCertificateAlert: CertificateAlert? {
        guard completedConnect else { return nil }
        var afterConnect = false
        for entry in debugLog.entries where entry.kind == .text {
            if entry.text.contains("CONNECT phase completed") { afterConnect = true }
            guard afterConnect, entry.text.contains("(OUT), TLS alert, "),
                let open = entry.text.lastIndex(of: "("), let close = entry.text.lastIndex(of: ")"), open < close,
                let number = Int(entry.text[entry.text.index(after: open)..<close]),
                let alert = CertificateAlert(rawValue: number - 512)
            else { continue }
            return alert
        }
        return nil
    }
}

/// The TLS alerts a client sends when it refuses a certificate (RFC 8446 section 6.2; OpenSSL
/// picks one from its verify error, `ssl_x509err2alert`).
enum CertificateAlert: Int {
    case badCertificate = 42
    case unsupportedCertificate = 43
    case certificateRevoked = 44
    case certificateExpired = 45
    case certificateUnknown = 46
    case unknownCA = 48

    /// The alert's name as RFC 8446 writes it.
    var name: String {
        switch self {
        case .badCertificate: "bad_certificate"
        case .unsupportedCertificate: "unsupported_certificate"
        case .certificateRevoked: "certificate_revoked"
        case .certificateExpired: "certificate_expired"
        case .certificateUnknown: "certificate_unknown"
        case .unknownCA: "unknown_ca"
        }
    }
}
