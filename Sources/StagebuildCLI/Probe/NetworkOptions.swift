/// The network options `probe` and `lock` share, declared once with curl's names and meanings
/// (curl(1): `-x`/`--proxy`, `--noproxy`, `--cacert`, `--connect-timeout`, `--max-time`).
enum NetworkOptions {
    /// `-x`/`--proxy URL`: the proxy for every call; `""` for none (curl's `-x ""`).
    static let proxy = ArgumentScanner.Option(
        names: ["-x", "--proxy"], takesValue: true, valueName: "URL",
        help: "Proxy http[s]://[user:password@]host[:port] (default port 1080, 443 for https://); \"\" for direct.")
    /// `--noproxy LIST`: hosts that bypass the proxy; replaces `NO_PROXY`.
    static let noProxy = ArgumentScanner.Option(
        names: ["--noproxy"], takesValue: true, valueName: "LIST",
        help: "Hosts that bypass the proxy, comma-separated, as curl's (replaces NO_PROXY).")
    /// `--cacert FILE`: CA certificates to trust (CURLOPT_CAINFO).
    static let caCertificates = ArgumentScanner.Option(
        names: ["--cacert"], takesValue: true, valueName: "FILE", help: "Trust the CA certificates in this PEM file.")
    /// `--connect-timeout SECONDS`: the connect deadline (CURLOPT_CONNECTTIMEOUT_MS), 10 s by default.
    static let connectTimeout = ArgumentScanner.Option(
        names: ["--connect-timeout"], takesValue: true, valueName: "SECONDS",
        help: "Limit for connecting, CONNECT answer and TLS handshake included (default 10).")
    /// `--max-time SECONDS`: the deadline of each call (CURLOPT_TIMEOUT_MS), 30 s by default.
    static let maxTime = ArgumentScanner.Option(
        names: ["--max-time"], takesValue: true, valueName: "SECONDS", help: "Limit for each whole call (default 30).")
}
