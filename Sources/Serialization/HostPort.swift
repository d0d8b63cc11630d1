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

    /// `HOST[:PORT]` taken apart as Go's `net.SplitHostPort` reads it, the port optional: a
    /// bracketed host loses its brackets (`[::1]:80`, `[::1]`); an unbracketed text with one
    /// colon is `HOST:PORT`; with none or several (an IPv6 address alone), it is all host.
    ///
    /// - Parameter text: e.g. `127.0.0.1:9115`, `[::1]:443`, `localhost`.
    /// - Returns: The host and the port's text as written (not checked), or `nil` for a bracket
    ///   that is not closed or is followed by something other than `:PORT`.
    public static func split(_ text: Substring) -> (host: Substring, port: Substring?)? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            return rest.hasPrefix(":") ? (host, rest.dropFirst()) : nil
        }
        guard let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon else { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }
}
