/// How much a lint finding matters, from `error` (most) to `style` (least), graded as hadolint
/// grades its rules.
public enum LintSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The image is unsafe or the build cannot be reproduced.
    case error
    /// The build is likely to differ from one run to the next, or the image to be unsafe.
    case warning
    /// The image is larger or slower to build than it needs to be.
    case info
    /// A matter of taste.
    case style

    /// Orders severities from `style` (lowest) to `error` (highest).
    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .error: 3
        case .warning: 2
        case .info: 1
        case .style: 0
        }
    }
}
