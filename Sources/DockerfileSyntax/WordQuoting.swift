/// Writes a literal value as one Dockerfile word that BuildKit's shell-word lexer reads back
/// as exactly that value: no variable is expanded, no quote or escape is lost.
public enum WordQuoting {
    /// Why a value cannot be written as one word on one line.
    public enum Fault: Error, Sendable, Hashable {
        /// The value holds a line feed, carriage return or NUL at this scalar offset.
        case controlCharacter(offset: Int)
    }

    /// Characters that need no quoting in an `ARG`/`ENV` value.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIILetter || scalar.isASCIIDigit || "_./:@%+,-~^".unicodeScalars.contains(scalar)
    }

    /// Quotes a value: as is when it is plain, in single quotes when it holds no `'`, and
    /// otherwise in double quotes with `"`, `$` and the escape character escaped (BuildKit's
    /// `processDoubleQuote` reads exactly those three escapes).
    ///
    /// - Parameters:
    ///   - value: The literal value.
    ///   - escape: The escape character of the file the word goes into.
    /// - Returns: The word, e.g. `'a b'` for `a b`, `"it's \$HOME"` for `it's $HOME`.
    /// - Throws: `Fault` for values that cannot stay on one line as data. A value may end with
    ///   the escape character: it is always quoted then, so it never continues the line.
    public static func quoted(_ value: String, escape: EscapeCharacter = .backslash) throws(Fault) -> String {
        for (offset, scalar) in value.unicodeScalars.enumerated() where scalar == "\n" || scalar == "\r" || scalar == "\0" {
            throw .controlCharacter(offset: offset)
        }
        if !value.isEmpty && value.unicodeScalars.allSatisfy(isPlain) { return value }
        if !value.unicodeScalars.contains("'") { return "'" + value + "'" }
        var word = String.UnicodeScalarView(["\""])
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "$" || scalar == escape.scalar { word.append(escape.scalar) }
            word.append(scalar)
        }
        word.append("\"")
        return String(word)
    }
}
