import ProbeKit

/// curl's options for the scheme a proxy's 407 is answered with, shared by `probe` and `lock`:
/// `--proxy-basic` (the default, as in curl), `--proxy-digest`, `--proxy-ntlm`,
/// `--proxy-negotiate`, `--proxy-anyauth` (curl(1); `CURLOPT_PROXYAUTH`).
enum ProxyAuthenticationOptions {
    static let options = [
        ArgumentScanner.Option(
            names: ["--proxy-basic"], takesValue: false, help: "Answer the proxy's 407 with Basic (the default, as curl)."),
        ArgumentScanner.Option(names: ["--proxy-digest"], takesValue: false, help: "Answer the proxy's 407 with Digest."),
        ArgumentScanner.Option(names: ["--proxy-ntlm"], takesValue: false, help: "Answer the proxy's 407 with NTLM."),
        ArgumentScanner.Option(
            names: ["--proxy-negotiate"], takesValue: false,
            help: "Answer the proxy's 407 with Negotiate (SPNEGO; needs a Kerberos ticket)."),
        ArgumentScanner.Option(
            names: ["--proxy-anyauth"], takesValue: false,
            help: "Let libcurl pick the safest scheme the proxy offers (asks without credentials first)."),
    ]

    /// The scheme the arguments choose, Basic when none is given.
    ///
    /// - Throws: `CommandFailure.usage` when two are given.
    static func choice(_ arguments: ArgumentScanner.Arguments) throws(CommandFailure) -> ProxyAuthentication {
        let chosen = ProxyAuthentication.allCases.filter { arguments.has($0.flag) }
        guard chosen.count <= 1 else {
            throw CommandFailure.usage("choose one of \(chosen.map(\.flag).joined(separator: " and "))")
        }
        return chosen.first ?? .basic
    }
}
