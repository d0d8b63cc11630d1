import Curl

/// Which scheme the probe answers a proxy's `407` with, as curl's options choose it:
/// `--proxy-basic` (the default, as in curl), `--proxy-digest`, `--proxy-ntlm`,
/// `--proxy-negotiate` and `--proxy-anyauth` (curl(1); `CURLOPT_PROXYAUTH`).
public enum ProxyAuthentication: String, Sendable, Equatable, CaseIterable {
    /// Basic (RFC 7617), sent with the first request.
    case basic
    /// Digest (RFC 7616).
    case digest
    /// NTLM.
    case ntlm
    /// Negotiate (SPNEGO, RFC 4559): needs a Kerberos ticket of the user running the probe.
    case negotiate
    /// Whatever the proxy offers, the safest first: libcurl asks without credentials first.
    case any = "anyauth"

    /// The command-line flag, e.g. `--proxy-ntlm`.
    public var flag: String { "--proxy-\(rawValue)" }

    /// The schemes libcurl may use.
    var curlSchemes: EasyOption.AuthenticationSchemes {
        switch self {
        case .basic: .basic
        case .digest: .digest
        case .ntlm: .ntlm
        case .negotiate: .negotiate
        case .any: .any
        }
    }

    /// The scheme names this setting answers with, as `Proxy-Authenticate` writes them.
    var schemeNames: [String] {
        switch self {
        case .basic: ["Basic"]
        case .digest: ["Digest"]
        case .ntlm: ["NTLM"]
        case .negotiate: ["Negotiate"]
        case .any: ["Basic", "Digest", "NTLM", "Negotiate"]
        }
    }

    /// The setting that answers a scheme a proxy offers, or `nil` for one curl does not speak.
    ///
    /// - Parameter scheme: An auth-scheme token (RFC 9110 section 11.1), any case.
    static func answering(_ scheme: String) -> ProxyAuthentication? {
        switch scheme.lowercased() {
        case "basic": .basic
        case "digest": .digest
        case "ntlm": .ntlm
        case "negotiate": .negotiate
        default: nil
        }
    }
}
