import Foundation

/// A regular expression the response body must match somewhere: `--expect-body REGEX`.
///
/// Compiled once with Foundation's `NSRegularExpression` (ICU syntax); the body is read as
/// UTF-8, invalid bytes replaced. Only the bytes the probe kept (the first 1 MiB) are searched.
public struct BodyPattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let compiled: CompiledExpression

    /// Compiles a pattern.
    ///
    /// - Parameter pattern: an `NSRegularExpression` pattern, e.g. `"\"status\":\\s*\"ok\""`.
    /// - Throws: ``ProbeInputError/invalidBodyPattern(_:reason:)`` when it does not compile.
    public init(_ pattern: String) throws(ProbeInputError) {
        do {
            compiled = CompiledExpression(try NSRegularExpression(pattern: pattern))
        } catch {
            throw .invalidBodyPattern(pattern, reason: "not a valid regular expression (NSRegularExpression)")
        }
        self.pattern = pattern
    }

    /// Whether the body matches somewhere.
    ///
    /// - Parameter body: the body bytes.
    /// - Returns: `true` on a match.
    public func matches(_ body: [UInt8]) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return compiled.expression.firstMatch(in: text, range: range) != nil
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Patterns are equal when their text is.
    public static func == (left: BodyPattern, right: BodyPattern) -> Bool { left.pattern == right.pattern }
}

/// An `NSRegularExpression`, which Apple documents as immutable and safe to use from several
/// threads at once ("Thread Safety" in its class reference).
private final class CompiledExpression: @unchecked Sendable {
    let expression: NSRegularExpression

    init(_ expression: NSRegularExpression) {
        self.expression = expression
    }
}
