import Curl
import ProbeKit
import StageKit

/// `probe`'s PAC options: `--pac FILE|URL` (the script that chooses each call's proxy), `--wpad`
/// and `--wpad-domain DOMAIN` (find the script by DNS), `--pac-my-address ADDRESS` (what the
/// script's `myIpAddress()` returns) and `--pac-only` (print the script's decision for each
/// target without calling).
enum PACOptions {
    static let options = [
        ArgumentScanner.Option(
            names: ["--pac"], takesValue: true, valueName: "FILE|URL",
            help: "Route each call as a proxy auto-config script decides, its entries tried in order (fetched directly)."),
        ArgumentScanner.Option(
            names: ["--wpad"], takesValue: false,
            help: "Find the PAC script as browsers do: http://wpad.DOMAIN/wpad.dat for each search domain (never a parent)."),
        ArgumentScanner.Option(
            names: ["--wpad-domain"], takesValue: true, valueName: "DOMAIN",
            help: "A search domain for --wpad instead of /etc/resolv.conf's (repeatable)."),
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
        _ arguments: ArgumentScanner.Arguments, settings: ProbeSettings, deadline: Double?, context: CommandContext
    ) throws(CommandFailure) -> PACSettings? {
        let wpad = arguments.has("--wpad")
        guard let text = arguments.value("--pac"), !wpad else {
            if wpad {
                if arguments.value("--pac") != nil { throw .usage("choose one of --pac and --wpad") }
                return try discovered(arguments, settings: settings, deadline: deadline, context: context)
            }
            for option in ["--pac-only", "--pac-my-address", "--wpad-domain"]
            where arguments.has(option) || arguments.value(option) != nil {
                throw .usage("\(option) needs --pac FILE|URL or --wpad")
            }
            return nil
        }
        try checkCompanions(arguments)
        guard !text.isEmpty else { throw .usage("--pac takes a file or an http:// or https:// URL, not an empty word") }
        let source = PACScriptSource(text)
        if let scheme = PACScriptSource.unsupportedScheme(in: text) {
            throw .usage("--pac takes a file, a file: URL or an http:// or https:// URL, not a \(scheme): URL")
        }
        let script: String
        switch source {
        case .url(let url):
            do {
                script = try PACScriptSource.fetch(url, settings: fetching(settings, deadline: deadline))
            } catch {
                throw .error(.unavailable, "--pac \(error)" + limitNote(settings, deadline: deadline))
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
        return PACSettings(script: script, origin: source.shown, myAddress: arguments.value("--pac-my-address"))
    }

    /// The settings a script is fetched with: its whole fetch bounded by `--connect-timeout` (a PAC
    /// file is a few KiB: a server that takes longer is as good as down, and each silent WPAD host
    /// would cost a call's whole time), `--max-time` and `--deadline`.
    private static func fetching(_ settings: ProbeSettings, deadline: Double?) -> ProbeSettings {
        var fetching = settings
        fetching.maxTime = min(settings.effectiveConnectTimeout, settings.effectiveMaxTime, deadline ?? .infinity)
        fetching.connectTimeout = fetching.maxTime
        return fetching
    }

    /// What bounded the fetch, said after a failure: `" (each fetch may take 2 s: the least of
    /// --connect-timeout, --max-time and --deadline)"`.
    private static func limitNote(_ settings: ProbeSettings, deadline: Double?) -> String {
        let seconds = fetching(settings, deadline: deadline).effectiveMaxTime
        return " (a fetch may take \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s: the least of "
            + "--connect-timeout, --max-time and --deadline)"
    }

    /// What `--pac` and `--wpad` both refuse: `--proxy` or `--noproxy` beside them, a
    /// `--pac-my-address` that is no IPv4 address.
    private static func checkCompanions(_ arguments: ArgumentScanner.Arguments) throws(CommandFailure) {
        if arguments.value("--proxy") != nil {
            throw .usage(
                "a PAC script chooses each call's proxy: leave out --proxy (curl's view of the environment is still noted)")
        }
        if arguments.value("--noproxy") != nil {
            throw .usage(
                "a PAC script decides which hosts go direct (its DIRECT answers): leave out --noproxy, or change the script")
        }
        if let myAddress = arguments.value("--pac-my-address"), IPAddress.v4(parsing: myAddress) == nil {
            throw .usage("--pac-my-address takes an IPv4 address, as myIpAddress() returns one, not '\(myAddress)'")
        }
    }

    /// `--wpad`: the first candidate URL of the search domains (`--wpad-domain`, else
    /// `/etc/resolv.conf`'s) that answers with a script; the URLs passed over are said on
    /// standard error.
    ///
    /// - Throws: ``CommandFailure``: 64 as ``checkCompanions(_:)``, 69 when no URL answered or
    ///   there is no search domain.
    private static func discovered(
        _ arguments: ArgumentScanner.Arguments, settings: ProbeSettings, deadline: Double?, context: CommandContext
    ) throws(CommandFailure) -> PACSettings {
        try checkCompanions(arguments)
        var domains: [String] = []
        for text in arguments.all("--wpad-domain") {
            let domain = String(text.lowercased().reversed().drop { $0 == "." }.reversed())
            guard WPADDiscovery.isDomainName(domain), domain.contains(".") else {
                throw .usage("--wpad-domain takes a DNS domain of two labels or more such as corp.example, not '\(text)'")
            }
            domains.append(domain)
        }
        let given = !domains.isEmpty
        if !given {
            domains = WPADDiscovery.searchDomains(resolvConf: (try? context.fileSystem.readText(at: "/etc/resolv.conf")) ?? "")
        }
        let candidates = WPADDiscovery.candidates(searchDomains: domains)
        guard !candidates.isEmpty else {
            let named = domains.isEmpty ? "none" : domains.joined(separator: " ")
            throw .error(
                .unavailable,
                "--wpad has no search domain of two labels or more to look in ("
                    + (given
                        ? "--wpad-domain: \(named))" : "/etc/resolv.conf's search list: \(named)); give --wpad-domain DOMAIN"))
        }
        do {
            let found = try WPADDiscovery.discover(
                candidates, settings: fetching(settings, deadline: deadline), within: deadline)
            for passed in found.passedOver { context.warn("--wpad passed over \(passed)") }
            context.standardError.write("stagebuild: --wpad uses \(found.url)\n")
            return PACSettings(script: found.script, origin: found.url, myAddress: arguments.value("--pac-my-address"))
        } catch {
            throw .error(.unavailable, "--wpad: \(error)" + limitNote(settings, deadline: deadline))
        }
    }
}
