import CRE2

#if canImport(Glibc)
import Glibc
#endif

/// A regular expression a user gives (`--expect-body`, an exporter module's body checks),
/// compiled with RE2: RE2 syntax, which is Go's `regexp` syntax that blackbox_exporter configs
/// use, and matching in time linear in the text's length whatever the pattern, so that no
/// pattern (`(a+)+b`, `(\w+\s?)+$`) can outlast a deadline.
///
/// Immutable after compilation: RE2 documents a compiled `RE2` as safe to use from several
/// threads at once.
public final class RegularExpression: @unchecked Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let compiled: OpaquePointer

    /// Compiles a pattern.
    ///
    /// - Parameter pattern: RE2 syntax (https://github.com/google/re2/wiki/Syntax), UTF-8.
    /// - Throws: ``RegularExpressionError`` with RE2's own message, e.g. `invalid perl
    ///   operator: (?=` for a look-ahead, which RE2 does not have.
    public init(_ pattern: String) throws(RegularExpressionError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            cre2_compile(buffer.baseAddress, buffer.count - 1, &message)
        }
        guard let result else {
            let reason = message.map { String(cString: $0) } ?? "cannot be compiled"
            free(message)
            throw RegularExpressionError(pattern: pattern, reason: reason)
        }
        self.pattern = pattern
        self.compiled = result
    }

    deinit { cre2_release(compiled) }

    /// Whether the pattern matches somewhere in the bytes (RE2's `PartialMatch`).
    ///
    /// - Parameter bytes: The text, normally UTF-8.
    /// - Returns: `true` on a match.
    public func matches(_ bytes: [UInt8]) -> Bool {
        // An empty array may have no storage; RE2 still needs a pointer.
        let text = bytes.isEmpty ? [0] : bytes
        return text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cre2_search(compiled, $0.baseAddress, bytes.count) == 1 }
        }
    }

    /// The pattern as written.
    public var description: String { pattern }
}

/// A pattern RE2 cannot compile.
public struct RegularExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String
    /// RE2's message.
    public var reason: String

    /// The reason, for messages.
    public var description: String { reason }
}
