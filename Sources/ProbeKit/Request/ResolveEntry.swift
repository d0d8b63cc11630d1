import Serialization

/// A fixed address for a host and port, as curl's `--resolve HOST:PORT:ADDRESS[,ADDRESS]...`
/// (`CURLOPT_RESOLVE`): libcurl uses the address instead of asking DNS.
public struct ResolveEntry: Sendable, Equatable, CustomStringConvertible {
    /// The host name, e.g. `"api.example.com"`.
    public var host: String
    /// The port, 1-65535.
    public var port: Int
    /// The addresses, IPv6 in brackets, e.g. `["127.0.0.1"]` or `["[::1]"]`.
    public var addresses: [String]

    /// Parses an entry.
    ///
    /// - Parameter text: e.g. `"api.example.com:443:127.0.0.1"`.
    /// - Throws: ``ProbeInputError/invalidResolveEntry(_:reason:)`` when a part is missing, the
    ///   port is not 1-65535, or an address is not IPv4 or (bracketed) IPv6.
    public init(parsing text: String) throws(ProbeInputError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[2].isEmpty else {
            throw .invalidResolveEntry(text, reason: "write it as HOST:PORT:ADDRESS")
        }
        guard let port = Int(parts[1]), (1...65_535).contains(port), parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw .invalidResolveEntry(text, reason: "the port must be a number from 1 to 65535") }
        var addresses: [String] = []
        for address in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : String(address)
            guard IPAddress.v4(parsing: bare) != nil || IPAddress.v6(parsing: bare) != nil else {
                throw .invalidResolveEntry(text, reason: "\"\(address)\" is not an IPv4 or IPv6 address")
            }
            addresses.append(HostPort.bracketed(bare))
        }
        self.host = String(parts[0])
        self.port = port
        self.addresses = addresses
    }

    /// `"HOST:PORT:ADDRESS[,ADDRESS]"`, the form libcurl takes.
    public var description: String { "\(host):\(port):\(addresses.joined(separator: ","))" }
}
