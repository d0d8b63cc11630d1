/// The one way text from outside (a server's words, a request's bytes, a path) is shown on a
/// terminal, in a log or in a comment: each control character, C0 but tab, DEL and C1
/// (U+0080-U+009F, which some terminals read as escape sequences too), as a `\xHH` escape, so
/// raw escape sequences never drive the reader's terminal and a line feed never forges a line.
public enum ControlCharacters {
    /// Whether `scalar` is shown escaped.
    @inlinable
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    /// `\xHH`, two uppercase hex digits, for a scalar ``isEscaped(_:)`` holds for.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var text = "\\x"
        text.unicodeScalars.append(digits[Int(scalar.value >> 4)])
        text.unicodeScalars.append(digits[Int(scalar.value & 0xF)])
        return text
    }

    /// The text with every control character escaped.
    ///
    /// - Parameter text: e.g. `"realm\u{1B}[2J"`.
    /// - Returns: e.g. `"realm\x1B[2J"`; the text itself when it holds none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { shown += escape(scalar) } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }
}
