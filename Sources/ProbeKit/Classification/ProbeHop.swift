/// Where along the way a call failed: at the proxy, or at the target (the origin server, reached
/// through the proxy's tunnel or directly).
public enum ProbeHop: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The proxy: reaching it, its answer to CONNECT, or an answer it made up itself.
    case proxy
    /// The target: its name, its TCP port, its TLS certificate, or its HTTP answer.
    case target
    /// This machine, before any connection to the target: `--engine urlsession`'s
    /// FoundationNetworking refusing a URL that libcurl and Apple platforms take, or the
    /// exporter failing to obtain a module's OAuth 2.0 token.
    case client

    /// `"proxy"`, `"target"` or `"client"`.
    public var description: String { rawValue }
}
