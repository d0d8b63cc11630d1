/// The state of the Debian archive a build's apt reads, as the `debian` stage template sets
/// it up: one snapshot.debian.org moment (`DEBIAN_SNAPSHOT`), or the live suites its sources
/// name.
///
/// Source: the template `Stages/debian.Dockerfile`; snapshot.debian.org's URL scheme
/// (`BASE/archive/ARCHIVE/YYYYMMDDTHHMMSSZ/`, snapshot.debian.org "Usage"); Debian 12's
/// `/etc/apt/sources.list.d/debian.sources`.
public struct DebianArchiveState: Sendable, Hashable, CustomStringConvertible {
    /// The template parameter that names the snapshot time.
    public static let snapshotParameter = "DEBIAN_SNAPSHOT"
    /// The template parameter that names the snapshot service's base URL.
    public static let snapshotURLParameter = "DEBIAN_SNAPSHOT_URL"
    /// snapshot.debian.org, the default of ``snapshotURLParameter``.
    public static let defaultSnapshotURL = "http://snapshot.debian.org"

    /// One archive: a base URL and the suites read from it (component `main`).
    public struct Source: Sendable, Hashable {
        /// The archive's base URL without a trailing slash, e.g. `http://deb.debian.org/debian`.
        public var url: String
        /// The suites, e.g. `["bookworm", "bookworm-updates"]`.
        public var suites: [String]
    }

    /// The snapshot time, `YYYYMMDDTHHMMSSZ` in UTC; `nil` for the live archive.
    public var snapshot: String?
    /// The archives in the order apt's sources name them.
    public var sources: [Source]

    /// The live archive of Debian 12, as the image's sources name it: `bookworm` and
    /// `bookworm-updates` from deb.debian.org/debian, `bookworm-security` from
    /// deb.debian.org/debian-security.
    public static let live = DebianArchiveState(
        snapshot: nil,
        sources: [
            Source(url: "http://deb.debian.org/debian", suites: ["bookworm", "bookworm-updates"]),
            Source(url: "http://deb.debian.org/debian-security", suites: ["bookworm-security"]),
        ])

    /// The archive as it was at one moment: the same suites from
    /// `BASE/archive/debian/TIME` and `BASE/archive/debian-security/TIME`.
    ///
    /// - Parameters:
    ///   - time: `YYYYMMDDTHHMMSSZ`.
    ///   - baseURL: The snapshot service, e.g. `http://snapshot.debian.org`.
    /// - Returns: The state.
    public static func snapshot(_ time: String, baseURL: String = defaultSnapshotURL) -> DebianArchiveState {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return DebianArchiveState(
            snapshot: time,
            sources: [
                Source(url: "\(base)/archive/debian/\(time)", suites: ["bookworm", "bookworm-updates"]),
                Source(url: "\(base)/archive/debian-security/\(time)", suites: ["bookworm-security"]),
            ])
    }

    /// Whether a text is a snapshot time as snapshot.debian.org writes it, `YYYYMMDDTHHMMSSZ`.
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
        // snapshot.debian.org begins in 2005; a date must exist in the Gregorian calendar.
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (2005...9999).contains(year), (1...12).contains(month), (1...days[month - 1]).contains(day) else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// Every suite in order.
    public var suites: [String] { sources.flatMap(\.suites) }

    /// `Debian snapshot 20250520T000000Z (bookworm, bookworm-updates, bookworm-security)` or
    /// `Debian's live suites (bookworm, bookworm-updates, bookworm-security)`.
    public var description: String {
        let suites = suites.joined(separator: ", ")
        return snapshot.map { "Debian snapshot \($0) (\(suites))" } ?? "Debian's live suites (\(suites))"
    }
}
