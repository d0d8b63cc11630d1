/// Text escaped for XML 1.0 and HTML: JUnit reports, lint's Checkstyle XML and the exporter's
/// page all escape through here.
public enum MarkupText {
    /// Text escaped for XML 1.0 (sections 2.4 and 3.3.3), also safe in HTML: `&`, `<`, `>` as
    /// entities; in attribute values also `"` and `'` (`&quot;`, `&apos;`, which HTML5 knows
    /// too), and tab, LF and CR as character references (else a parser turns them into
    /// spaces); other control characters and the noncharacters U+FFFE and U+FFFF as U+FFFD
    /// (section 2.2 excludes them).
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - attribute: Whether it goes in an attribute value (else element content, where line
    ///     breaks and tabs stay as they are, and quotes need no escape).
    public static func escaped(_ text: String, attribute: Bool = true) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "'" where attribute: result += "&apos;"
            case "\n": result += attribute ? "&#10;" : "\n"
            case "\r": result += "&#13;"
            case "\t": result += attribute ? "&#9;" : "\t"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
