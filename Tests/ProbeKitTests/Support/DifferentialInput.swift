import Foundation

/// The JSON lines a `Tests/Oracle` generator wrote, from the file an environment variable
/// names; none when the variable is unset, so a plain `swift test` runs no generated case.
enum DifferentialInput {
    /// Each line of the file named by `variable`, decoded; `[]` when the variable is unset.
    ///
    /// - Parameters:
    ///   - variable: e.g. `STAGEBUILD_DIFFERENTIAL_URLS`.
    ///   - type: what one line holds.
    static func lines<Line: Decodable>(from variable: String, as type: Line.Type) throws -> [Line] {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Line.self, from: Data($0)) }
    }

    /// A tally of outcomes by kind, printed as one line per kind, most frequent first.
    struct Tally {
        private(set) var counts: [String: Int] = [:]
        private(set) var total = 0

        mutating func count(_ kind: String) {
            counts[kind, default: 0] += 1
            total += 1
        }

        func report(_ title: String) {
            print("\(title): \(total) inputs")
            for (kind, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                print("  \(count)\t\(kind)")
            }
        }
    }
}
