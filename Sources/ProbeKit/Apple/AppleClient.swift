/// The Apple client stacks whose verdict on a server's certificate the probe reports
/// (`--client`), as each stack's own source decides it: docs/apple-clients.md.
public enum AppleClient: String, Sendable, CaseIterable {
    /// `URLSession` with default server-trust handling (no delegate answers the challenge);
    /// also Alamofire 5 without a `ServerTrustManager`.
    case urlSession = "URLSession"
    /// AFNetworking 3.x: `AFSecurityPolicy` in `AFURLSessionManager`'s challenge handler.
    case afNetworking3 = "AFNetworking 3"
    /// AFNetworking 4.x: the same policy; a refused challenge becomes -1202.
    case afNetworking4 = "AFNetworking 4"
    /// Alamofire 5 with a `ServerTrustManager` whose evaluator matches the probe's switches.
    case alamofire5 = "Alamofire 5"

    /// The stack for a `--client` value: `urlsession`, `afnetworking3`, `afnetworking4`,
    /// `alamofire5`; `nil` for anything else.
    ///
    /// - Parameter option: The value as given.
    public init?(option: String) {
        switch option.lowercased() {
        case "urlsession": self = .urlSession
        case "afnetworking3": self = .afNetworking3
        case "afnetworking4": self = .afNetworking4
        case "alamofire5": self = .alamofire5
        default: return nil
        }
    }
}
