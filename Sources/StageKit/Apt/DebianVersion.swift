/// A Debian package version, `[EPOCH:]UPSTREAM[-REVISION]`, ordered as dpkg orders them.
///
/// Source: Debian policy 5.6.12 ("Version"): epochs compare as numbers; the upstream version
/// and the revision compare by alternating non-digit parts (letters before other characters,
/// `~` before everything, even the end) and digit parts (as numbers); dpkg's `verrevcmp`.
public struct DebianVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The epoch, 0 when none is written.
    public var epoch: Int
    /// The upstream version.
    public var upstream: String
    /// The Debian revision, empty when none is written.
    public var revision: String
    /// The version as written.
    public var description: String

    /// Reads a version.
    ///
    /// - Parameter text: e.g. `1:1.2.13.dfsg-1+deb12u1`.
    public init(_ text: String) {
        description = text
        var rest = Substring(text)
        if let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]) {
            epoch = number
            rest = rest[rest.index(after: colon)...]
        } else {
            epoch = 0
        }
        if let dash = rest.lastIndex(of: "-") {
            upstream = String(rest[..<dash])
            revision = String(rest[rest.index(after: dash)...])
        } else {
            upstream = String(rest)
            revision = ""
        }
    }

    /// Whether dpkg orders `lhs` before `rhs`: epoch, then upstream version, then revision.
    public static func < (lhs: DebianVersion, rhs: DebianVersion) -> Bool {
        if lhs.epoch != rhs.epoch { return lhs.epoch < rhs.epoch }
        let upstream = compare(lhs.upstream, rhs.upstream)
        if upstream != 0 { return upstream < 0 }
        return compare(lhs.revision, rhs.revision) < 0
    }

    /// Two versions are equal when dpkg orders neither before the other (`1.0` and `01.0`).
    public static func == (lhs: DebianVersion, rhs: DebianVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    /// Hashes the epoch only: versions dpkg orders as equal (`1.0`, `01.0`) hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(epoch) }

    /// dpkg's `verrevcmp`: negative, zero or positive.
    private static func compare(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        var i = 0
        var j = 0
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        func order(_ byte: UInt8?) -> Int {
            guard let byte else { return 0 }
            if isDigit(byte) { return 0 }
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { return Int(byte) }
            if byte == UInt8(ascii: "~") { return -1 }
            return Int(byte) + 256
        }
        while i < a.count || j < b.count {
            var difference = 0
            while (i < a.count && !isDigit(a[i])) || (j < b.count && !isDigit(b[j])) {
                let left = order(i < a.count ? a[i] : nil)
                let right = order(j < b.count ? b[j] : nil)
                if left != right { return left - right }
                i += 1
                j += 1
            }
            while i < a.count && a[i] == 0x30 { i += 1 }
            while j < b.count && b[j] == 0x30 { j += 1 }
            while i < a.count && isDigit(a[i]) && j < b.count && isDigit(b[j]) {
                if difference == 0 { difference = Int(a[i]) - Int(b[j]) }
                i += 1
                j += 1
            }
            if i < a.count && isDigit(a[i]) { return 1 }
            if j < b.count && isDigit(b[j]) { return -1 }
            if difference != 0 { return difference }
        }
        return 0
    }
}
