/// An apt archive a build stage reads, as the template that adds it declares it
/// (``AptArchiveDeclaration``): Debian's or Ubuntu's archive of one release, live or at one
/// snapshot moment, or a third-party repository signed with its own key.
///
/// Sources: Debian's `/etc/apt/sources.list.d/debian.sources` (bookworm and later: suites
/// `R`, `R-updates` at deb.debian.org/debian, `R-security` at deb.debian.org/debian-security);
/// snapshot.debian.org's URL scheme (`BASE/archive/ARCHIVE/YYYYMMDDTHHMMSSZ/`); Ubuntu's
/// `ubuntu.sources` (`R`, `R-updates` at archive.ubuntu.com/ubuntu, `R-security` at
/// security.ubuntu.com/ubuntu; ports.ubuntu.com/ubuntu-ports for architectures other than amd64
/// and i386) and snapshot.ubuntu.com (`BASE/ubuntu/YYYYMMDDTHHMMSSZ/`, every pocket);
/// sources.list(5) for `Signed-By`.
public struct AptArchive: Sendable, Hashable, CustomStringConvertible {
    /// Whose archive it is, which decides its layout.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Debian's archive of one release.
        case debian
        /// Ubuntu's archive of one release.
        case ubuntu
        /// A third-party repository: one URL, its suites and components.
        case repository
    }

    /// Whose archive it is.
    public var kind: Kind
    /// The release's code name for Debian and Ubuntu, e.g. `bookworm`, `noble`.
    public var release: String?
    /// The snapshot moment, `YYYYMMDDTHHMMSSZ`; `nil` for the live archive.
    public var snapshot: String?
    /// The template parameter that holds the snapshot moment, e.g. `DEBIAN_SNAPSHOT`: what
    /// `stagebuild lock --snapshot` records for it.
    public var snapshotParameter: String?
    /// The snapshot service's base URL, e.g. `http://snapshot.debian.org`.
    public var snapshotURL: String?
    /// A repository's URL, e.g. `https://download.docker.com/linux/debian`.
    public var url: String?
    /// A repository's suites, e.g. `["bookworm"]`.
    public var suites: [String]
    /// The components read, e.g. `["main"]`, `["stable"]`.
    public var components: [String]
    /// The key the archive's `InRelease` must be signed with.
    public var keyring: AptKeyring
    /// Who declares it, for messages: `stage template 'apt-repository' at Stagefile:2:5`.
    public var declaredBy = ""

    /// Creates an archive.
    ///
    /// - Parameters: one per property.
    public init(
        kind: Kind, release: String? = nil, snapshot: String? = nil, snapshotParameter: String? = nil,
        snapshotURL: String? = nil, url: String? = nil, suites: [String] = [], components: [String], keyring: AptKeyring
    ) {
        self.kind = kind
        self.release = release
        self.snapshot = snapshot
        self.snapshotParameter = snapshotParameter
        self.snapshotURL = snapshotURL
        self.url = url
        self.suites = suites
        self.components = components
        self.keyring = keyring
    }

    /// One URL apt reads with the suites it reads there.
    public struct Source: Sendable, Hashable {
        /// The base URL without a trailing slash.
        public var url: String
        /// The suites read from it.
        public var suites: [String]
    }

    /// The sources apt reads for an architecture, in the order apt's sources name them.
    ///
    /// - Parameter architecture: As `dpkg --print-architecture` names it, e.g. `amd64`.
    public func sources(architecture: String) -> [Source] {
        let release = release ?? ""
        let snapshotBase = snapshotURL.map(Self.trimmed) ?? ""
        switch kind {
        case .debian:
            let main = [release, release + "-updates"]
            let security = [release + "-security"]
            if let snapshot {
                return [
                    Source(url: "\(snapshotBase)/archive/debian/\(snapshot)", suites: main),
                    Source(url: "\(snapshotBase)/archive/debian-security/\(snapshot)", suites: security),
                ]
            }
            return [
                Source(url: "http://deb.debian.org/debian", suites: main),
                Source(url: "http://deb.debian.org/debian-security", suites: security),
            ]
        case .ubuntu:
            let ports = !["amd64", "i386"].contains(architecture)
            let folder = ports ? "ubuntu-ports" : "ubuntu"
            let pockets = [release, release + "-updates", release + "-security"]
            if let snapshot { return [Source(url: "\(snapshotBase)/\(folder)/\(snapshot)", suites: pockets)] }
            if ports { return [Source(url: "http://ports.ubuntu.com/ubuntu-ports", suites: pockets)] }
            return [
                Source(url: "http://archive.ubuntu.com/ubuntu", suites: Array(pockets.prefix(2))),
                Source(url: "http://security.ubuntu.com/ubuntu", suites: [pockets[2]]),
            ]
        case .repository:
            return [Source(url: Self.trimmed(url ?? ""), suites: suites)]
        }
    }

    /// Every field that decides what lock reads, in one line, for the lockfile to record and
    /// `lock --check` to compare: `debian release=bookworm snapshot=… snapshot-url=… components=main
    /// keyring=/usr/share/keyrings/debian-archive-keyring.gpg`.
    ///
    /// - Parameter keyDigest: The SHA-256 of a key file in the build context (`sha256:…`), or
    ///   `nil` when it cannot be read; a changed key makes the line another.
    public func canonical(keyDigest: (String) -> String?) -> String {
        var fields = [kind.rawValue]
        if let release { fields.append("release=\(release)") }
        if let snapshot { fields.append("snapshot=\(snapshot)") }
        if snapshot != nil, let snapshotURL { fields.append("snapshot-url=\(snapshotURL)") }
        if let url { fields.append("url=\(url)") }
        if !suites.isEmpty { fields.append("suites=\(suites.joined(separator: ","))") }
        fields.append("components=\(components.joined(separator: ","))")
        switch keyring {
        case .file(let path): fields.append("keyring=\(path)")
        case .buildContext(let path): fields.append("key=\(path)@\(keyDigest(path) ?? "unreadable")")
        }
        return fields.joined(separator: " ")
    }

    /// `Debian bookworm at snapshot 20250520T000000Z`, `Ubuntu noble (live)`, `the apt repository
    /// https://download.docker.com/linux/debian (bookworm)`.
    public var description: String {
        switch kind {
        case .debian, .ubuntu:
            let name = kind == .debian ? "Debian" : "Ubuntu"
            return "\(name) \(release ?? "") " + (snapshot.map { "at snapshot \($0)" } ?? "(live)")
        case .repository:
            return "the apt repository \(url ?? "") (\(suites.joined(separator: ", ")))"
        }
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// Whether a text is a snapshot time as snapshot.debian.org and snapshot.ubuntu.com write
    /// it, `YYYYMMDDTHHMMSSZ`, a date of the Gregorian calendar from 2005 on.
    ///
    /// - Parameter text: e.g. `20250520T000000Z`.
    public static func isSnapshotTime(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 16, scalars[8] == "T", scalars[15] == "Z",
            (scalars[0..<8] + scalars[9..<15]).allSatisfy({ ("0"..."9").contains($0) })
        else { return false }
        func number(_ range: Range<Int>) -> Int { Int(String(String.UnicodeScalarView(scalars[range]))) ?? -1 }
        let (year, month, day) = (number(0..<4), number(4..<6), number(6..<8))
        let (hour, minute, second) = (number(9..<11), number(11..<13), number(13..<15))
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (2005...9999).contains(year), (1...12).contains(month), (1...days[month - 1]).contains(day) else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }
}

/// The OpenPGP keys an archive's `InRelease` must be signed with (sources.list(5), `Signed-By`).
public enum AptKeyring: Sendable, Hashable, CustomStringConvertible {
    /// A keyring file on the machine that runs `stagebuild lock`, at the path the image reads
    /// it from too, e.g. `/usr/share/keyrings/debian-archive-keyring.gpg` (Debian's
    /// `debian-archive-keyring`, `ubuntu-keyring` for Ubuntu's).
    case file(String)
    /// A key file in the build context, relative to the Stagefile's folder (ASCII-armored or
    /// binary), which the template copies into the image.
    case buildContext(String)

    /// The path as written.
    public var description: String {
        switch self {
        case .file(let path): path
        case .buildContext(let path): path + " (in the build context)"
        }
    }
}
