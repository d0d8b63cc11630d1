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
    ///
    /// - Parameter url: the URL as it will be sent.
    public func allows(_ url: String) -> Bool {
        patterns.isEmpty || patterns.contains { $0.matches(Array(url.utf8)) }
    }

    /// Filters are equal when their patterns' texts are.
    public static func == (left: TargetFilter, right: TargetFilter) -> Bool {
        left.option == right.option && left.patterns.map(\.pattern) == right.patterns.map(\.pattern)
    }
}
