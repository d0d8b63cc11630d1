import CPacParser
import Serialization

/// A proxy auto-config script run by a real JavaScript PAC engine: libpacparser (Debian's
/// `libpacparser-dev`, SpiderMonkey with the helper functions of Netscape's PAC definition and
/// Mozilla's `pac_utils`: `dnsResolve`, `isInNet`, `myIpAddress`, `shExpMatch`, `dnsDomainIs`,
/// `localHostOrDomainIs`, `isPlainHostName`, `isResolvable`, `dnsDomainLevels`, `weekdayRange`,
/// `dateRange`, `timeRange`).
///
/// Before the script, ``PACHelpers`` replaces the helpers where libpacparser differs from what
/// browsers run today (date and time ranges that wrap around) and gives `alert`.
///
/// Each evaluation runs in a child process of its own (see the C shim): the engine keeps one
/// global context, and a script may loop forever or allocate without end, so the child is held
/// to ``memoryLimit`` bytes of address space beyond what it inherits and killed at ``timeLimit``.
/// Calls from many threads at once are safe: each has its own child.
public struct PACEngine: Sendable, Equatable {
    /// The wall-clock limit of one evaluation, in seconds (script load and `FindProxyForURL`).
    public var timeLimit: Double
    /// The address space one evaluation may add, in bytes.
    public var memoryLimit: Int

    /// An engine with limits.
    ///
    /// - Parameters:
    ///   - timeLimit: seconds, default 5 (browsers give a PAC script a few seconds as well).
    ///   - memoryLimit: bytes, default 256 MiB.
    public init(timeLimit: Double = 5, memoryLimit: Int = 256 << 20) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
    }

    /// Calls `FindProxyForURL(url, host)` of `script`.
    ///
    /// - Parameters:
    ///   - script: the PAC file's text (UTF-8, no NUL byte).
    ///   - url: the URL asked for, the first argument.
    ///   - host: its host, the second argument (no brackets for IPv6).
    ///   - addresses: fixed addresses by lower-case host name (the probe's `--resolve`), IPv4 and
    ///     IPv6 text without brackets: `dnsResolve` answers the first IPv4 one, `dnsResolveEx`
    ///     all of them; other names are resolved by the system, as on a device.
    ///   - myAddress: what `myIpAddress()` returns, or `nil` for the engine's own lookup of this
    ///     machine's name.
    /// - Returns: the script's answer as it returned it, e.g. `"PROXY a:3128; DIRECT"`.
    /// - Throws: ``PACEngineError``: the script failed, ran out of time or memory, or the engine
    ///   could not be started.
    public func findProxy(
        script: String, url: String, host: String, addresses: [String: [String]] = [:], myAddress: String? = nil
    ) throws(PACEngineError) -> String {
        guard !script.utf8.contains(0), !url.utf8.contains(0), !host.utf8.contains(0) else {
            throw .scriptError("the script holds a NUL byte")
        }
        let prelude = PACHelpers.script + (addresses.isEmpty ? "" : Self.resolvingPrelude(addresses))
        let capacity = 64 * 1024
        var output = [CChar](repeating: 0, count: capacity)
        let status = output.withUnsafeMutableBufferPointer { buffer in
            cpac_evaluate(
                script, prelude, url, host, myAddress, memoryLimit, Int32(min(timeLimit, 3_600) * 1000),
                buffer.baseAddress, capacity)
        }
        let text = String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch Int(status) {
        case Int(CPAC_ANSWERED.rawValue): return text
        case Int(CPAC_TIME_LIMIT.rawValue): throw .timeLimit(seconds: timeLimit)
        case Int(CPAC_MEMORY_LIMIT.rawValue): throw .memoryLimit(bytes: memoryLimit)
        case Int(CPAC_SCRIPT_ERROR.rawValue): throw .scriptError(Self.engineWords(text))
        case Int(CPAC_CRASHED.rawValue): throw .crashed(text)
        default: throw .system(text)
        }
    }

    /// A script run before the PAC file that makes `dnsResolve` and `dnsResolveEx` (and so
    /// `isInNet`, `isResolvable` and their `Ex` forms, which call them) answer the fixed names
    /// first, as the probe's calls reach them.
    static func resolvingPrelude(_ addresses: [String: [String]]) -> String {
        let table = JSONValue.sortedObject(
            addresses.map { ($0.key.lowercased(), JSONValue.array($0.value.map(JSONValue.string))) })
        return """
            (function (fixed, system, systemEx) {
              function known(host) {
                var name = String(host).toLowerCase();
                return fixed.hasOwnProperty(name) ? fixed[name] : null;
              }
              dnsResolve = function (host) {
                var list = known(host);
                if (list == null) return system(host);
                for (var index = 0; index < list.length; index++) {
                  if (list[index].indexOf(":") < 0) return list[index];
                }
                return null;
              };
              dnsResolveEx = function (host) {
                var list = known(host);
                return list == null ? systemEx(host) : list.join(";");
              };
            })(\(table.text(indent: 0, layout: .compact)), dnsResolve, dnsResolveEx);

            """
    }

    /// The engine's messages in one line: SpiderMonkey's `JSERROR: FILE:LINE:` and the message
    /// after it as `line LINE: message`; libpacparser's own words (`pacparser.c: FUNCTION: …`)
    /// only when the engine said nothing else.
    static func engineWords(_ text: String) -> String {
        var words: [String] = []
        var trailers: [String] = []
        var pendingLine: Substring?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty { continue }
            if line.hasPrefix("pacparser.c:") {
                // "pacparser.c: FUNCTION: words": the words only, said when nothing else is.
                trailers.append(line.split(separator: ":", maxSplits: 2).last.map { String($0.drop { $0 == " " }) } ?? "")
                continue
            }
            if line.hasPrefix("JSERROR:"), line.hasSuffix(":") {
                pendingLine = line.dropLast().split(separator: ":").last
                continue
            }
            words.append(pendingLine.map { "line \($0): \(line)" } ?? String(line))
            pendingLine = nil
        }
        if words.isEmpty { words = trailers.filter { !$0.isEmpty } }
        return words.isEmpty ? "the script did not return an answer" : words.joined(separator: "; ")
    }
}
