import Curl

/// Web Proxy Auto-Discovery through DNS, as browsers look for a PAC script: the name `wpad`,
/// which the resolver qualifies with each search domain in turn, so
/// `http://wpad.DOMAIN/wpad.dat` for each search domain. No parent domains: the "devolution"
/// Windows once did (`wpad.corp.example` from `a.corp.example`) reaches names such as
/// `wpad.co.uk` that anyone under a shared suffix can register, the WPAD hijack
/// (CVE-2016-3213's kind); Chrome and Firefox ask for `wpad` alone. DHCP's option 252 is not read.
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

    /// The URLs to try, in order, each once: one per search domain of two labels or more (a
    /// top-level domain alone would ask anyone's `wpad.example`).
    ///
    /// - Parameter domains: the search domains, e.g. `["a.corp.example", "corp.example"]`.
    /// - Returns: e.g. `["http://wpad.a.corp.example/wpad.dat", "http://wpad.corp.example/wpad.dat"]`.
    public static func candidates(searchDomains domains: [String]) -> [String] {
        var urls: [String] = []
        for domain in domains where domain.split(separator: ".").count >= 2 {
            let url = "http://wpad.\(domain)/wpad.dat"
            if !urls.contains(url) { urls.append(url) }
        }
        return urls
    }

    /// Whether text is a DNS domain name a resolver's search list may hold (RFC 1035 section
    /// 2.3.1, with digits first as RFC 1123 allows): labels of letters, digits and inner hyphens,
    /// 1 to 63 characters, 253 in all.
    ///
    /// - Parameter text: e.g. `"corp.example"`.
    public static func isDomainName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return !text.isEmpty && text.utf8.count <= 253
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }

    /// Fetches the first candidate that answers with a script (``PACScriptSource/fetch(_:settings:)``,
    /// directly, with the run's limits, `--resolve` and `--connect-to`).
    ///
    /// - Parameters:
    ///   - candidates: the URLs, in order.
    ///   - settings: the settings of each fetch (its limit is `settings`' `--max-time`).
    ///   - seconds: the whole search's limit (`--deadline`), or `nil`: a fetch gets no more than
    ///     what is left of it, and no candidate is asked once it is spent.
    /// - Returns: the URL that answered, its script, and why each one before it did not.
    /// - Throws: ``PACScriptError`` naming every URL tried and why, when none answered.
    public static func discover(
        _ candidates: [String], settings: ProbeSettings, within seconds: Double? = nil
    ) throws(PACScriptError) -> (url: String, script: String, passedOver: [String]) {
        let started = ContinuousClock.now
        var passedOver: [String] = []
        for url in candidates {
            var fetching = settings
            if let seconds {
                let left = seconds - (ContinuousClock.now - started).inSeconds
                guard left > 0.001 else {
                    passedOver.append("\(Redaction.url(url)) was not asked: the search's \(Seconds.text(seconds)) s were spent")
                    break
                }
                fetching.maxTime = min(settings.effectiveMaxTime, left)
                fetching.connectTimeout = fetching.maxTime
            }
            do {
                return (url, try PACScriptSource.fetch(url, settings: fetching), passedOver)
            } catch {
                passedOver.append(error.message)
            }
        }
        guard !passedOver.isEmpty else { throw PACScriptError(message: "WPAD has no search domain to look in") }
        throw PACScriptError(message: "WPAD found no PAC script: " + passedOver.joined(separator: "; "))
    }
}
