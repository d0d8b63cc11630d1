import Foundation

/// The machine facts `stagebuild lock` reads for apt archives: the time now as a snapshot
/// time, and this machine's architecture as Debian and Ubuntu name it.
enum SnapshotTime {
    /// A moment as snapshot.debian.org and snapshot.ubuntu.com write it: `YYYYMMDDTHHMMSSZ`, UTC.
    ///
    /// - Parameter date: The moment.
    /// - Returns: e.g. `20251201T181500Z`.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "Z"
    }

    /// A snapshot moment's seconds since the epoch: the other way of ``format(_:)``.
    ///
    /// - Parameter moment: `YYYYMMDDTHHMMSSZ`, UTC.
    /// - Returns: The seconds, or `nil` for text of another shape.
    static func seconds(_ moment: String) -> Int? {
        let digits = Array(moment.utf8)
        guard digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: parts).map { Int($0.timeIntervalSince1970) }
    }

    /// This machine's architecture as `dpkg --print-architecture` prints it (Debian's names
    /// for the CPU the tool was built for: x86_64 is amd64, aarch64 is arm64).
    static var machineArchitecture: String {
        #if arch(x86_64)
        "amd64"
        #elseif arch(arm64)
        "arm64"
        #elseif arch(i386)
        "i386"
        #else
        "unknown"
        #endif
    }
}
