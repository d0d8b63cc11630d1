/// The place where two texts differ, widened to whole words: what a report shows of two
/// contents (`"2"` against `"1"`) and what causes are recognised by.
public struct DifferingText: Sendable, Hashable {
    /// The first text's differing words.
    public var first: String
    /// The second text's differing words.
    public var second: String

    /// Finds where two contents differ, or `nil` when either is not text (holds a NUL or is
    /// not UTF-8) or they are the same.
    ///
    /// - Parameters:
    ///   - first: The first content (its first bytes).
    ///   - second: The second content.
    public init?(_ first: [UInt8], _ second: [UInt8]) {
        guard first != second, !first.contains(0), !second.contains(0),
            let a = String(validating: first, as: UTF8.self), let b = String(validating: second, as: UTF8.self)
        else { return nil }
        let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        var start = 0
        while start < x.count, start < y.count, x[start] == y[start] { start += 1 }
        var end = 0
        while end < x.count - start, end < y.count - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ":.-_+/".unicodeScalars.contains(scalar)
        }
        // Widen to whole words: the same scalars on both sides, so the same steps.
        while start > 0, isWord(x[start - 1]) { start -= 1 }
        while end > 0, isWord(x[x.count - end]) { end -= 1 }
        func region(_ scalars: [Unicode.Scalar]) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<max(start, scalars.count - end)])
            return String(view)
        }
        self.first = region(x)
        self.second = region(y)
    }
}
