import Curl
import ProbeKit
import StageKit

/// `probe`'s PAC options: `--pac FILE|URL` (the script that chooses each call's proxy),
/// `--pac-my-address ADDRESS` (what the script's `myIpAddress()` returns) and `--pac-only`
/// (print the script's decision for each target without calling).
enum PACOptions {
    static let options = [
        ArgumentScanner.Option(
            names: ["--pac"], takesValue: true, valueName: "FILE|URL",
            help: "Route each call as a proxy auto-config script decides, its entries tried in order (fetched directly)."),
        ArgumentScanner.Option(
            names: ["--pac-my-address"], takesValue: true, valueName: "IPV4",
            help: "The address the PAC script's myIpAddress() returns: the device's, e.g. on the office Wi-Fi."),
        ArgumentScanner.Option(
            names: ["--pac-only"], takesValue: false, help: "Print the PAC script's answer for each URL; make no call."),
    ]

    /// The PAC settings of a command line, or `nil` without `--pac`; a URL is fetched now, once.
    ///
    /// - Parameters:
    ///   - arguments: the command line.
    ///   - settings: the run's other settings (the fetch uses its CA file, `--resolve` and limits).
    ///   - context: the file system and current directory.
    /// - Throws: ``CommandFailure``: 64 for `--pac` with `--proxy`, `--pac-only` or
    ///   `--pac-my-address` without `--pac`, or an address that is not IPv4; 74 for a file not
    ///   readable; 65 for one that is no PAC text; 69 for a URL that could not be fetched.
    static func settings(
        _ arguments: ArgumentScanner.Arguments, settings: ProbeSettings, context: CommandContext
    ) throws(CommandFailure) -> PACSettings? {
        guard let text = arguments.value("--pac") else {
            for option in ["--pac-only", "--pac-my-address"] where arguments.has(option) {
                throw .usage("\(option) needs --pac FILE|URL")
            }
            return nil
        }
        if arguments.value("--proxy") != nil {
            throw .usage("--pac chooses each call's proxy: leave out --proxy (curl's view of the environment is still noted)")
        }
        let myAddress = arguments.value("--pac-my-address")
        if let myAddress, IPAddress.v4(parsing: myAddress) == nil {
            throw .usage("--pac-my-address takes an IPv4 address, as myIpAddress() returns one, not '\(myAddress)'")
        }
        let source = PACScriptSource(text)
        let script: String
        switch source {
        case .url(let url):
            do {
                script = try PACScriptSource.fetch(url, settings: settings)
            } catch {
                throw .error(.unavailable, "--pac \(error)")
            }
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try context.fileSystem.readBytes(at: Paths.absolute(path, from: context.currentDirectory))
            } catch {
                throw .unreadable("--pac \(path)", error)
            }
            do {
                script = try PACScriptSource.text(bytes, shown: path)
            } catch {
                throw .error(.dataError, "--pac \(error)")
            }
        }
        return PACSettings(script: script, origin: source.shown, myAddress: myAddress)
    }
}
