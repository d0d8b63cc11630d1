/// An `HTTP/MAJOR.MINOR` protocol version (RFC 9112 section 2.3).
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version; the server answers only `1`.
    public var major: Int
    /// The minor version; `0` and `1` are distinct, higher minors are served as `1`.
    public var minor: Int

    /// Creates a version.
    ///
    /// - Parameters:
    ///   - major: A single digit.
    ///   - minor: A single digit.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.1`.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// The version as written on the wire, e.g. `"HTTP/1.1"`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
