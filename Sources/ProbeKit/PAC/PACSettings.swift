import Foundation
import PAC

/// A PAC script that chooses each call's route (`--pac`, the exporter's `pac_url`), and how it
/// runs.
public struct PACSettings: Sendable, Equatable {
    /// The script's text.
    public var script: String
    /// Where it came from, for reports: a path, or its URL without user info.
    public var origin: String
    /// The engine and its limits.
    public var engine: PACEngine
    /// What `myIpAddress()` returns (`--pac-my-address`), or `nil` for the engine's own lookup of
    /// this machine's name.
    public var myAddress: String?

    /// Settings.
    ///
    /// - Parameters:
    ///   - script: the text.
    ///   - origin: a path or a redacted URL.
    ///   - engine: the engine (default limits: 5 s of processor time, 256 MiB).
    ///   - myAddress: `myIpAddress()`'s answer, or `nil`.
    public init(script: String, origin: String, engine: PACEngine = PACEngine(), myAddress: String? = nil) {
        self.script = script
        self.origin = origin
        self.engine = engine
        self.myAddress = myAddress
    }

    /// The script's answer for a request, as a device asks: `FindProxyForURL(url, host)` with
    /// the URL without user info (browsers never hand credentials to a PAC script).
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - resolve: `--resolve` entries: the script's `dnsResolve` answers their names with
    ///     their first IPv4 address and `dnsResolveEx` with all of them, as the call reaches them.
    ///   - seconds: what is left of the call's time: the wait for the answer is no longer.
    ///   - stopped: asked while waiting; `true` stops the script (a cancelled run).
    /// - Returns: the answer, read.
    /// - Throws: ``PACEngineError`` when the script gives none.
    public func answer(
        for request: ProbeRequest, resolve: [ResolveEntry], within seconds: Double = 30, stopped: () -> Bool = { false }
    ) throws(PACEngineError) -> PACAnswer {
        var addresses: [String: [String]] = [:]
        for entry in resolve where addresses[entry.host.lowercased()] == nil {
            addresses[entry.host.lowercased()] = entry.addresses.map {
                $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0
            }
        }
        return PACAnswer(
            parsing: try engine.findProxy(
                script: script, url: TargetFilter.withoutUserInfo(request.url.absoluteString) ?? request.url.absoluteString,
                host: request.host, addresses: addresses,
                myAddress: myAddress, within: seconds, stopped: stopped))
    }
}
