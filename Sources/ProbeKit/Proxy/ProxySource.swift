/// Where a proxy setting came from: the command line, an environment variable or a PAC script.
public enum ProxySource: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Given on the command line (`--proxy`, `--noproxy`), or by a caller as such.
    case option(String)
    /// Read from the environment variable with this exact name, e.g. `"https_proxy"`.
    case environment(String)
    /// An entry of a PAC script's answer (`--pac`), as written, e.g. `"PROXY a.corp:3128"`.
    case pac(entry: String)

    /// The option or variable name, e.g. `"--proxy"` or `"HTTPS_PROXY"`, or `"the PAC's entry
    /// PROXY a.corp:3128"`.
    public var description: String {
        switch self {
        case .option(let name), .environment(let name): name
        case .pac(let entry): "the PAC's entry \(entry)"
        }
    }
}
