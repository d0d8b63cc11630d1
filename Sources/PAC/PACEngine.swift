import CPacParser
import Glibc
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
/// to ``processorTimeLimit`` seconds of processor time and ``memoryLimit`` bytes of address
/// space beyond what it inherits, and killed when the caller's time is up or it stops waiting.
/// Calls from many threads at once are safe: each has its own child, which keeps no descriptor
/// of the parent's.
public struct PACEngine: Sendable, Equatable {
    /// The processor time one evaluation may use, in whole seconds (RLIMIT_CPU, at least 1): a
    /// script that loops is stopped by its own work, however busy the machine is.
    public var processorTimeLimit: Int
    /// The address space one evaluation may add, in bytes.
    public var memoryLimit: Int

    /// An engine with limits.
    ///
    /// - Parameters:
    ///   - processorTimeLimit: seconds, default 5: a PAC script answers in milliseconds.
    ///   - memoryLimit: bytes, default 256 MiB.
    public init(processorTimeLimit: Int = 5, memoryLimit: Int = 256 << 20) {
        self.processorTimeLimit = max(1, processorTimeLimit)
        self.memoryLimit = memoryLimit
    }

    /// Calls `FindProxyForURL(url, host)` of `script`, waiting at most `seconds` for the answer.
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
    ///   - seconds: the wall-clock time the caller can wait (what is left of a call's time).
    ///   - stopped: asked every 50 ms; `true` stops the evaluation (a cancelled run).
    /// - Returns: the script's answer as it returned it, e.g. `"PROXY a:3128; DIRECT"`.
    /// - Throws: ``PACEngineError``: the script failed, used up its processor time or memory,
    ///   gave no answer in time, was stopped, or the engine could not be started.
    public func findProxy(
        script: String, url: String, host: String, addresses: [String: [String]] = [:], myAddress: String? = nil,
        within seconds: Double = 30, stopped: () -> Bool = { false }
    ) throws(PACEngineError) -> String {
        guard !script.utf8.contains(0), !url.utf8.contains(0), !host.utf8.contains(0) else {
            throw .scriptError("the script holds a NUL byte")
        }
        let prelude = PACHelpers.script + (addresses.isEmpty ? "" : Self.resolvingPrelude(addresses))
        var child: pid_t = 0
        let descriptor = cpac_start(
            script, prelude, url, host, myAddress, memoryLimit, UInt32(processorTimeLimit),
            UInt32(min(seconds, 86_400).rounded(.up)) + 2, &child)
        guard descriptor >= 0 else { throw .system("fork: " + String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let (bytes, ending) = Self.collect(from: descriptor, within: seconds, stopped: stopped)
        if ending != nil { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        if let ending { throw ending }
        guard let kind = bytes.first else {
            // Killed by a signal: SIGXCPU at the processor-time limit, SIGKILL a second after it.
            let signal = status & 0x7f
            if signal == SIGXCPU || signal == SIGKILL { throw .processorTimeLimit(seconds: processorTimeLimit) }
            throw .crashed(signal != 0 ? "signal \(signal)" : "it ended without an answer")
        }
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        switch kind {
        case UInt8(ascii: "A"): return text
        case UInt8(ascii: "M"): throw .memoryLimit(bytes: memoryLimit)
        default: throw .scriptError(Self.engineWords(text))
        }
    }

    /// What the child wrote (at most 64 KiB) until it closed its pipe, or why the wait ended
    /// first: the time was up or the caller stopped it.
    private static func collect(
        from descriptor: Int32, within seconds: Double, stopped: () -> Bool
    ) -> (bytes: [UInt8], ending: PACEngineError?) {
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, seconds) * 1000))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if stopped() { return (bytes, .stopped) }
            let left = deadline - .now
            guard left > .zero else { return (bytes, .noAnswer(within: seconds)) }
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                min(50, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            let ready = poll(&watched, 1, milliseconds)
            guard ready != 0 else { continue }
            if ready < 0 && errno == EINTR { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (bytes, nil) }
            bytes += chunk.prefix(min(count, 65_536 - bytes.count))
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
            // SpiderMonkey says line 0 for a value thrown that is no Error (`throw "text"`).
            words.append(pendingLine.flatMap { $0 == "0" ? nil : "line \($0): \(line)" } ?? String(line))
            pendingLine = nil
        }
        if words.isEmpty { words = trailers.filter { !$0.isEmpty } }
        return words.isEmpty ? "the script did not return an answer" : words.joined(separator: "; ")
    }
}
