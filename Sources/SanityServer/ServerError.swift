import Glibc

/// Why the sanity server could not start or a socket operation failed.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configured host is not a numeric IPv4 or IPv6 address.
    ///
    /// - Parameters:
    ///   - host: The host exactly as configured, e.g. `"localhost:80"`.
    case invalidHost(String)
    /// A configuration value is out of its range.
    ///
    /// - Parameters:
    ///   - setting: Which value, e.g. ``ServerConfiguration/Setting/port``.
    ///   - requirement: Its range and the value, e.g. `"must be 0...65535, got 70000"`.
    case invalidConfiguration(ServerConfiguration.Setting, requirement: String)
    /// `start()` was called on a server that already started.
    case alreadyStarted
    /// A system call failed.
    ///
    /// - Parameters:
    ///   - call: The call's name, e.g. `"bind"`.
    ///   - errno: The C `errno` value the call left, e.g. `EADDRINUSE`.
    case systemCall(call: String, errno: Int32)

    /// A message a user can act on, e.g. `"bind: Address already in use (errno 98)"`.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid host '\(host)': expected a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .invalidConfiguration(let setting, let requirement):
            return "invalid configuration: \(setting.rawValue) \(requirement)"
        case .alreadyStarted:
            return "the server has already been started"
        case .systemCall(let call, let code):
            return "\(call): \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
