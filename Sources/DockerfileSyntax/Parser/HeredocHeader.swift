/// Finds the heredocs an instruction line opens, as BuildKit's `heredocsFromLine` does: the
/// line is split into shell words, and each word of the form `[FD]<<[-]DELIMITER` opens one.
enum HeredocHeader {
    /// The keywords whose instructions may carry heredocs (Dockerfile reference, "Here-Documents").
    static let keywords: Set<Keyword?> = [.add, .copy, .run]

    /// - Parameter line: The logical instruction line.
    /// - Returns: The heredocs it opens, bodies still empty, in order.
    static func heredocs(openedBy line: String) -> [Heredoc] {
        // Every heredoc word holds "<<": most lines have none and need no lexing.
        guard Self.holdsDoubleLessThan(line) else { return [] }
        // BuildKit always lexes this with `\` as escape, whatever the escape directive says,
        // and a line its lexer cannot read opens no heredoc.
        let raw = ShellWordLexer(escape: "\\", keepsQuotes: true, keepsEscapes: true)
        guard let words = try? raw.words(line) else { return [] }
        return words.compactMap(heredoc(in:))
    }

    /// Whether `<<` occurs in the line: a byte scan (the generic `firstRange(of:)` costs a
    /// large file a fifth of its parse).
    private static func holdsDoubleLessThan(_ line: String) -> Bool {
        var previousWasLess = false
        for byte in line.utf8 {
            let isLess = byte == UInt8(ascii: "<")
            if isLess && previousWasLess { return true }
            previousWasLess = isLess
        }
        return false
    }

    /// Matches `^(\d*)<<(-?)([^<]*)$` and reads the delimiter word.
    private static func heredoc(in word: String) -> Heredoc? {
        let scalars = word.scalars
        var index = 0
        while index < scalars.count, scalars[index].isASCIIDigit { index += 1 }
        let descriptor = Int(String(scalars: scalars[0..<index])) ?? 0
        guard index + 1 < scalars.count, scalars[index] == "<", scalars[index + 1] == "<" else { return nil }
        index += 2
        var stripsTabs = false
        if index < scalars.count, scalars[index] == "-" {
            stripsTabs = true
            index += 1
        }
        let rest = String(scalars: scalars[index...])
        guard !rest.isEmpty, !rest.unicodeScalars.contains("<") else { return nil }
        guard let names = try? ShellWordLexer(escape: "\\").words(rest), names.count == 1,
            let rawNames = try? ShellWordLexer(escape: "\\", keepsQuotes: true).words(rest), rawNames.count == 1
        else { return nil }
        func quoteCount(_ text: String) -> Int { text.unicodeScalars.filter { $0 == "'" || $0 == "\"" }.count }
        return Heredoc(
            name: names[0], fileDescriptor: descriptor,
            expandsVariables: quoteCount(names[0]) == quoteCount(rawNames[0]), stripsLeadingTabs: stripsTabs)
    }
}
