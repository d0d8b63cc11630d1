import Patterns

/// A regular expression the response body must match somewhere: `--expect-body REGEX`.
///
/// RE2 syntax (Go's `regexp`, as blackbox_exporter's `fail_if_body_not_matches_regexp`),
/// matched in time linear in the body's length, so a pattern cannot outlast `--max-time`. The
/// whole body is searched, up to the call's body size limit (``Expectations/bodySizeLimit``).
public struct BodyPattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String { compiled.pattern }
    private let compiled: RegularExpression

    /// Compiles a pattern.
    ///
    /// - Parameter pattern: RE2 syntax, e.g. `"status":\s*"ok"`.
    /// - Throws: ``ProbeInputError/invalidBodyPattern(_:reason:)`` with RE2's message when it
    ///   does not compile (RE2 has no look-around or back-references).
    public init(_ pattern: String) throws(ProbeInputError) {
        // RE2 reads `\C` as any byte; Go's regexp, whose syntax the patterns are, refuses it.
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped, scalar == "C" {
                throw .invalidBodyPattern(pattern, reason: "\\C (any byte) is RE2's, not Go's regexp syntax")
            }
            escaped = !escaped && scalar == "\\"
        }
        do {
            compiled = try RegularExpression(pattern)
        } catch {
            throw .invalidBodyPattern(pattern, reason: "not a valid RE2 regular expression: \(error.reason)")
        }
    }

    /// Whether the body matches somewhere.
    ///
    /// - Parameter body: the body bytes.
    /// - Returns: `true` on a match.
    public func matches(_ body: [UInt8]) -> Bool { compiled.matches(body) }

    /// The pattern as written.
    public var description: String { pattern }

    /// Patterns are equal when their text is.
    public static func == (left: BodyPattern, right: BodyPattern) -> Bool { left.pattern == right.pattern }
}
