/// Where a proxy setting came from: the command line or an environment variable.
public enum ProxySource: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Given on the command line (`--proxy`, `--noproxy`), or by a caller as such.
    case option(String)
    /// Read from the environment variable with this exact name, e.g. `"https_proxy"`.
    case environment(String)

    /// The option or variable name, e.g. `"--proxy"` or `"HTTPS_PROXY"`.
    public var description: String {
        switch self {
        case .option(let name), .environment(let name): name
        }
    }
}
