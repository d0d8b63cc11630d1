import Foundation
import Patterns

/// The targets a run may send requests to (the exporter's `--allow-target`): each pattern must
/// match a whole URL. It is checked for the target asked for and again for every redirect
/// before it is followed, so an allowed target cannot lead the probe to a host the list leaves
/// out (an open redirect would otherwise turn the exporter into a server-side request forgery).
public struct TargetFilter: Sendable, Equatable {
    /// The patterns, each anchored to the whole URL.
    public let patterns: [RegularExpression]
    /// The option that set them, for messages, e.g. `--allow-target`.
    public let option: String

    /// A filter.
    ///
    /// - Parameters:
    ///   - patterns: RE2 patterns, each matching a whole URL (``anchored(_:)`` makes one so).
    ///   - option: the option that gave them.
    public init(patterns: [RegularExpression], option: String) {
        self.patterns = patterns
        self.option = option
    }

    /// A pattern text anchored to match a whole URL: `^(?:PATTERN)$`.
    ///
    /// - Parameter pattern: RE2 syntax as the user wrote it.
    /// - Returns: the anchored pattern text.
    public static func anchored(_ pattern: String) -> String { "^(?:\(pattern))$" }

    /// Whether a URL may be asked for: some pattern matches it (an empty list allows any).
    /// The patterns see the URL without its user info, so `http://allowed:80@elsewhere/` is
    /// judged as the `http://elsewhere/` it goes to, and a URL whose authority holds more than
    /// one `@` (parsers disagree on its host) is refused.
    ///
    /// - Parameter url: the URL as it will be sent.
    public func allows(_ url: String) -> Bool {
        guard !patterns.isEmpty else { return true }
        guard let judged = Self.withoutUserInfo(url) else { return false }
        return patterns.contains { $0.matches(Array(judged.utf8)) }
    }

    /// The URL with the user info of its authority taken out; `nil` for two `@` in it.
    static func withoutUserInfo(_ url: String) -> String? {
        guard let separator = url.range(of: "://") else { return url }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let ats = authority.filter { $0 == "@" }.count
        guard ats > 0 else { return url }
        guard ats == 1, let at = authority.firstIndex(of: "@") else { return nil }
        return String(url[..<separator.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// Filters are equal when their patterns' texts are.
    public static func == (left: TargetFilter, right: TargetFilter) -> Bool {
        left.option == right.option && left.patterns.map(\.pattern) == right.patterns.map(\.pattern)
    }
}
