/// Web Proxy Auto-Discovery through DNS, as browsers on Windows and macOS look for a PAC script:
/// `http://wpad.DOMAIN/wpad.dat` for each search domain, then for its parent domains down to
/// two labels ("devolution": `wpad.a.corp.example`, `wpad.corp.example`; never `wpad.example`,
/// which anyone under that suffix could answer). DHCP's option 252 is not read.
public enum WPADDiscovery {
    /// The search domains of `/etc/resolv.conf` text (resolv.conf(5)): the last `search` or
    /// `domain` line wins; lower case, without a trailing dot.
    ///
    /// - Parameter text: the file's text.
    /// - Returns: the domains in order; empty when none is set.
    public static func searchDomains(resolvConf text: String) -> [String] {
        var domains: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first, keyword == "search" || keyword == "domain" else { continue }
            domains = words.dropFirst().map { String($0.lowercased().reversed().drop { $0 == "." }.reversed()) }
                .filter { !$0.isEmpty && $0 != "." }
        }
        return domains
    }

    /// The URLs to try, in order, each once.
    ///
    /// - Parameter domains: the search domains, e.g. `["a.corp.example"]`.
    /// - Returns: e.g. `["http://wpad.a.corp.example/wpad.dat", "http://wpad.corp.example/wpad.dat"]`.
    public static func candidates(searchDomains domains: [String]) -> [String] {
        var urls: [String] = []
        for domain in domains {
            var labels = domain.split(separator: ".")
            while labels.count >= 2 {
                let url = "http://wpad.\(labels.joined(separator: "."))/wpad.dat"
                if !urls.contains(url) { urls.append(url) }
                labels.removeFirst()
            }
        }
        return urls
    }

    /// Fetches the first candidate that answers with a script (``PACScriptSource/fetch(_:settings:)``,
    /// directly, with the run's limits, `--resolve` and `--connect-to`).
    ///
    /// - Parameters:
    ///   - candidates: the URLs, in order.
    ///   - settings: the run's settings.
    /// - Returns: the URL that answered, its script, and why each one before it did not.
    /// - Throws: ``PACScriptError`` naming every URL tried and why, when none answered.
    public static func discover(
        _ candidates: [String], settings: ProbeSettings
    ) throws(PACScriptError) -> (url: String, script: String, passedOver: [String]) {
        var passedOver: [String] = []
        for url in candidates {
            do {
                return (url, try PACScriptSource.fetch(url, settings: settings), passedOver)
            } catch {
                passedOver.append(error.message)
            }
        }
        guard !passedOver.isEmpty else { throw PACScriptError(message: "WPAD has no search domain to look in") }
        throw PACScriptError(message: "WPAD found no PAC script: " + passedOver.joined(separator: "; "))
    }
}
