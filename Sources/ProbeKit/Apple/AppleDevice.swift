/// The device and app an Apple client verdict is for, as far as the probe is told: the roots
/// the user installed on the device, and whether the app's Info.plist excepts the host from
/// App Transport Security.
public struct AppleDevice: Sendable, Equatable {
    /// PEM files of roots installed and fully trusted on the device (`--device-ca`, and
    /// `--cacert`, which stands for one).
    public var installedRootFiles: [String]
    /// Whether the app's Info.plist turns App Transport Security off for the host
    /// (`--ats-exception`: `NSAllowsArbitraryLoads`, or an `NSExceptionDomains` entry with
    /// `NSExceptionAllowsInsecureHTTPLoads` and the TLS exceptions the server needs).
    public var atsException: Bool
    /// The folder of the public roots standing for Apple's preloaded ones.
    public var publicRootsDirectory: String

    /// Where Debian's `ca-certificates` keeps the Mozilla roots it ships, one file each, before
    /// any local addition (`/usr/local/share/ca-certificates` and `update-ca-certificates`
    /// write elsewhere): the nearest set this machine has to Apple's preloaded roots.
    public static let debianPublicRoots = "/usr/share/ca-certificates/mozilla"

    /// A device.
    ///
    /// - Parameters: one per property.
    public init(installedRootFiles: [String] = [], atsException: Bool = false, publicRootsDirectory: String = debianPublicRoots) {
        self.installedRootFiles = installedRootFiles
        self.atsException = atsException
        self.publicRootsDirectory = publicRootsDirectory
    }
}

/// Where App Transport Security applies (NSAllowsLocalNetworking's documentation): not to an
/// unqualified host name or a `.local` name since iOS 10; to an IP address from iOS 17 (iOS 10
/// to 16 exempted those too).
public enum AppTransportSecurity {
    /// Whether ATS covers connections to a host.
    ///
    /// - Parameter host: The host, an IP literal without brackets.
    /// - Returns: `false` for `localhost`, `printer` or `nas.local`; `true` otherwise.
    public static func covers(host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name.contains(":") { return true }
        if !name.contains(".") { return false }
        return !name.lowercased().hasSuffix(".local")
    }
}
