/// A host and port written as a URL authority writes them (RFC 3986 section 3.2.2): an IPv6
/// address in brackets, `[::1]:8080`; names and IPv4 addresses as they are, `localhost:8080`.
public enum HostPort {
    /// The host, bracketed when it is an IPv6 address (it holds a `:`) and not bracketed yet.
    ///
    /// - Parameter host: A name, an IPv4 address, or an IPv6 address with or without brackets.
    public static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// `HOST:PORT`, the host bracketed as ``bracketed(_:)`` does.
    ///
    /// - Parameters:
    ///   - host: The host.
    ///   - port: The port.
    public static func joined(_ host: String, _ port: Int) -> String {
        "\(bracketed(host)):\(port)"
    }
}
