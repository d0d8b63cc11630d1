import Foundation
import Serialization

/// The HTTP status codes a call may answer with to succeed: `--expect-status`, e.g.
/// `"200,301-308"`; the default is `200-399` (RFC 9110 section 15: 2xx successful, 3xx
/// redirection, which the probe does not follow).
public struct StatusList: Sendable, Equatable, CustomStringConvertible {
    /// The ranges, in the order written; a single code is a range of one.
    public var ranges: [ClosedRange<Int>]

    /// The default, `200-399`.
    public static let `default` = StatusList(ranges: [200...399])

    /// A list of ranges.
    ///
    /// - Parameter ranges: each within 100...599.
    public init(ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// Parses `CODE` and `LOW-HIGH` entries separated by commas; blanks around entries are allowed.
    ///
    /// - Parameter text: e.g. `"200,301-308"` or `"204"`.
    /// - Throws: ``ProbeInputError/invalidStatusList(_:reason:)`` for an empty entry, a code
    ///   outside 100-599, or a range whose low end is above its high end.
    public init(parsing text: String) throws(ProbeInputError) {
        var ranges: [ClosedRange<Int>] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.trimmingHTTPWhitespace()
            guard !trimmed.isEmpty else { throw .invalidStatusList(text, reason: "an entry is empty") }
            let bounds = trimmed.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2 else { throw .invalidStatusList(text, reason: "\"\(trimmed)\" is not CODE or LOW-HIGH") }
            var numbers: [Int] = []
            for bound in bounds {
                let digits = bound.trimmingHTTPWhitespace()
                guard digits.count == 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(digits),
                    (100...599).contains(code)
                else {
                    throw .invalidStatusList(text, reason: "\"\(digits)\" is not a status code (100-599)")
                }
                numbers.append(code)
            }
            let low = numbers[0]
            let high = numbers.count == 2 ? numbers[1] : low
            guard low <= high else { throw .invalidStatusList(text, reason: "the range \(low)-\(high) is empty") }
            ranges.append(low...high)
        }
        self.ranges = ranges
    }

    /// Whether `status` is in one of the ranges.
    ///
    /// - Parameter status: an HTTP status code.
    /// - Returns: `true` when it is expected.
    public func contains(_ status: Int) -> Bool {
        ranges.contains { $0.contains(status) }
    }

    /// `"200,301-308"`: the ranges in order, single codes without a dash.
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
    }
}
