import Digests
import StageKit

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

    /// The absolute path of a certificate file given with `option` (`--cacert`,
    /// `--proxy-cacert`): it exists, can be read and holds PEM certificates OpenSSL reads, as
    /// CURLOPT_CAINFO expects; otherwise the error would surface later as a TLS failure of the
    /// server. The one reading of these options for `probe` and `lock`.
    ///
    /// - Throws: ``CommandFailure``: 74 when the file cannot be read, 65 when it is no UTF-8
    ///   text, holds a damaged certificate or none.
    static func certificateFile(_ path: String, option: String, context: CommandContext) throws(CommandFailure) -> String {
        let absolute = Paths.absolute(path, from: context.currentDirectory)
        let text: String
        do {
            text = try context.fileSystem.readText(at: absolute)
        } catch {
            throw .unreadable("\(option) \(path)", error)
        }
        let count: Int
        do {
            count = try PEMCertificates.count(in: Array(text.utf8))
        } catch {
            throw .error(
                .dataError, "\(option) \(path): certificate \(error.number) cannot be read by OpenSSL (damaged base64 or DER)")
        }
        guard count > 0 else {
            throw .error(.dataError, "\(option) \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        return absolute
    }
}
