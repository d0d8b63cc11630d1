/// The packages dpkg's status database says are installed, with their versions: read from
/// both builds' `/var/lib/dpkg/status` to name a package that two builds installed at
/// different versions.
///
/// Source: deb-control(5) and dpkg(1) (the status file is control paragraphs with `Package`,
/// `Status` and `Version` fields).
public struct PackageVersions: Sendable, Hashable {
    /// The path of dpkg's status database in a layer.
    public static let statusPath = "var/lib/dpkg/status"

    /// Installed packages' versions, by name (with `:arch` for a foreign architecture).
    public var versions: [String: String]

    /// Reads a status database.
    ///
    /// - Parameter bytes: The file's bytes.
    public init(status bytes: [UInt8]) {
        var versions: [String: String] = [:]
        let text = String(decoding: bytes, as: UTF8.self)
        for paragraph in text.split(separator: "\n\n", omittingEmptySubsequences: true) {
            var fields: [Substring: Substring] = [:]
            for line in paragraph.split(separator: "\n") where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon]] = line[line.index(after: colon)...].drop { $0 == " " }
            }
            guard let name = fields["Package"], let version = fields["Version"],
                fields["Status"]?.hasSuffix(" installed") ?? false
            else { continue }
            let architecture = fields["Architecture"].map { $0 == "all" ? "" : String($0) } ?? ""
            let key = fields["Multi-Arch"] == "same" && !architecture.isEmpty ? "\(name):\(architecture)" : String(name)
            versions[key] = String(version)
        }
        self.versions = versions
    }

    /// A package two builds hold at different versions, or in one only.
    public struct Change: Sendable, Hashable {
        /// The package's name.
        public var name: String
        /// Its version in the first build; `nil` when not installed there.
        public var first: String?
        /// Its version in the second build.
        public var second: String?
    }

    /// The packages whose versions differ, by name.
    ///
    /// - Parameter other: The second build's packages.
    public func changes(to other: PackageVersions) -> [Change] {
        Set(versions.keys).union(other.versions.keys).sorted().compactMap { name in
            versions[name] == other.versions[name]
                ? nil : Change(name: name, first: versions[name], second: other.versions[name])
        }
    }
}
