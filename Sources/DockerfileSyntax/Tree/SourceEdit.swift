/// A run of text on one line of a file: where it starts and how many Unicode scalars it holds.
public struct SourceRange: Sendable, Hashable {
    /// The 1-based line and column of its first scalar.
    public var start: SourceLocation
    /// Its length in Unicode scalars.
    public var length: Int

    /// Creates a range.
    ///
    /// - Parameters:
    ///   - start: The first scalar's position.
    ///   - length: The length in Unicode scalars.
    public init(start: SourceLocation, length: Int) {
        self.start = start
        self.length = length
    }
}

/// Replaces words of a file by their ranges and keeps every other byte as it is: the one way
/// compose changes text it does not write itself (pinning an image is such an edit).
public struct SourceEdit: Sendable, Hashable {
    /// What the edit replaces.
    public var range: SourceRange
    /// The text the range must hold now; an edit whose range holds other text is not applied.
    public var expected: String
    /// The new text.
    public var replacement: String

    /// Creates an edit.
    ///
    /// - Parameters:
    ///   - range: What to replace.
    ///   - expected: The text the range must hold.
    ///   - replacement: The new text.
    public init(range: SourceRange, expected: String, replacement: String) {
        self.range = range
        self.expected = expected
        self.replacement = replacement
    }

    /// Applies edits to a text whose lines end in `\n`.
    ///
    /// - Parameters:
    ///   - edits: Edits whose ranges do not overlap, in any order.
    ///   - text: The text the ranges are positions in.
    /// - Returns: The new text, and the edits not applied because their range is outside the
    ///   text or does not hold their expected text, in the order given.
    public static func apply(_ edits: [SourceEdit], to text: String) -> (text: String, skipped: [SourceEdit]) {
        guard !edits.isEmpty else { return (text, []) }
        // Split on the scalar: as a Character, "\r\n" is one grapheme and not "\n".
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var skipped: [Int] = []
        // Right to left, so that the columns of edits still to come stay valid.
        for (position, edit) in edits.enumerated().sorted(by: { $0.element.range.start > $1.element.range.start }) {
            let line = edit.range.start.line - 1
            let start = edit.range.start.column - 1
            let end = start + edit.range.length
            guard lines.indices.contains(line), start >= 0, end <= lines[line].count,
                lines[line][start..<end].elementsEqual(edit.expected.unicodeScalars)
            else {
                skipped.append(position)
                continue
            }
            lines[line].replaceSubrange(start..<end, with: edit.replacement.unicodeScalars)
        }
        return (lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n"), skipped.sorted().map { edits[$0] })
    }
}

extension DockerfileSyntaxTree {
    /// The file's text with edits applied; see ``SourceEdit/apply(_:to:)``.
    ///
    /// - Parameter edits: Edits at positions of this file.
    /// - Returns: The new text and the edits not applied.
    public func applying(_ edits: [SourceEdit]) -> (text: String, skipped: [SourceEdit]) {
        // Columns count from after a byte order mark, as the parser read the file.
        let body = elements.map(\.text).joined()
        let edited = SourceEdit.apply(edits, to: body)
        return ((hasByteOrderMark ? "\u{FEFF}" : "") + edited.text, edited.skipped)
    }
}
