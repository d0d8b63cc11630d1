import CYAML

/// A position in YAML text: where a node starts or where libyaml found a problem.
///
/// Both numbers are 1-based. Lines end where YAML 1.1 ends them, as libyaml counts: at LF, CR,
/// CR LF (one break), NEL (U+0085), LS (U+2028) and PS (U+2029). Columns count Unicode scalars,
/// not bytes or grapheme clusters, so `é` (U+00E9) is one column and a tab is one column; a
/// byte order mark opening the text is not counted.
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in Unicode scalars, from 1.
    public var column: Int

    /// A mark at a line and column.
    ///
    /// - Parameters:
    ///   - line: 1-based line.
    ///   - column: 1-based column, in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `"LINE:COLUMN"`, e.g. `"3:7"`.
    public var description: String { "\(line):\(column)" }

    /// libyaml's mark, whose line and column are 0-based and count characters (Unicode scalars
    /// of the decoded input).
    init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// The mark of the Unicode scalar at a UTF-8 byte offset, counted as libyaml counts; libyaml's
    /// reader errors give only a byte offset.
    init(utf8Offset offset: Int, in text: String) {
        let end = text.utf8.index(text.startIndex, offsetBy: min(offset, text.utf8.count))
        var line = 1
        var column = 1
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars[..<end] {
            defer { previous = scalar }
            switch scalar {
            case "\u{FEFF}" where previous == nil:
                continue
            case "\n" where previous == "\r":
                continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 1
            default:
                column += 1
            }
        }
        self.init(line: line, column: column)
    }
}
