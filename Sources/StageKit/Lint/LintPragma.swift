import Serialization

/// The ignore pragma `# stagebuild ignore=SB001[,SB002] REASON`: a comment line directly
/// above an instruction (in the run of comment lines that ends at it) switches the named
/// rules off for that instruction only, as hadolint's `# hadolint ignore=DL3008` does.
/// `# stagebuild global ignore=SB001 REASON` above the file's first instruction switches them
/// off for the whole file (hadolint's `# hadolint global ignore=`).
///
/// Write the reason after the ids: `# stagebuild ignore=SB012 nginx starts as root, then drops to www-data`.
///
/// The words `stagebuild` and `ignore` and the ids are read in any case; spaces may stand
/// around `=` and around the commas between ids. A comment that starts with `stagebuild`
/// and then `ignore` is a pragma attempt: whatever is wrong with it (a malformed form, an id
/// that is not `SB` + three digits or names no rule, no reason, an id after the ids that is
/// read as the start of the reason) is one of its `problems`, which rule SB016 reports, so
/// a pragma never does nothing silently.
public struct LintPragma: Sendable, Hashable {
    /// One thing wrong with a pragma, and where.
    public struct Problem: Sendable, Hashable {
        /// What is wrong, in one sentence without a trailing period.
        public var message: String
        /// The 1-based column, in Unicode scalars, of the part that is wrong.
        public var column: Int
    }

    /// The well-formed ids it names, upper-cased, in order; empty when the pragma is malformed.
    public var ruleIDs: [String]
    /// The text after the ids, trimmed; empty when none is given.
    public var reason: String
    /// The 1-based column of the word `stagebuild`.
    public var column: Int
    /// What is wrong with it; empty for a good pragma.
    public var problems: [Problem]
    /// True for `# stagebuild global ignore=…`, which switches the rules off for the whole file
    /// when it stands above the file's first instruction.
    public var isGlobal = false

    /// Reads a comment line as a pragma.
    ///
    /// - Parameters:
    ///   - line: The physical line, e.g. `  # stagebuild ignore = SB003, SB005 pinned upstream`
    ///     (leading white space and a line ending are allowed).
    ///   - knownRuleIDs: The ids of the rules stagebuild ships; a well-formed id outside
    ///     them is a problem.
    /// - Returns: The pragma, or `nil` when the line is no pragma attempt.
    public static func parse(_ line: String, knownRuleIDs: Set<String>) -> LintPragma? {
        var reader = Reader(Array(line.unicodeScalars))
        reader.skipSpaces()
        guard reader.peek == "#" else { return nil }
        reader.index += 1
        reader.skipSpaces()
        let keywordColumn = reader.index + 1
        guard reader.consumeWord("stagebuild") else { return nil }
        var separator = reader.separator()
        let isGlobal = reader.consumeWord("global")
        if isGlobal { separator += reader.separator() }
        let ignoreColumn = reader.index + 1
        guard reader.consumeWord("ignore") else { return nil }

        var pragma = LintPragma(ruleIDs: [], reason: "", column: keywordColumn, problems: [], isGlobal: isGlobal)
        func malformed(_ what: String, at column: Int) -> LintPragma {
            pragma.ruleIDs = []
            pragma.problems = [
                Problem(
                    message: "\(what); write it as '# stagebuild \(isGlobal ? "global " : "")ignore=SBnnn[,SBnnn] REASON'",
                    column: column)
            ]
            return pragma
        }
        if separator.contains(where: { $0 != " " && $0 != "\t" }) || separator.isEmpty {
            let words = isGlobal ? "'stagebuild', 'global' and 'ignore'" : "'stagebuild' and 'ignore'"
            return malformed("malformed pragma: \(words) must be separated by spaces only", at: keywordColumn)
        }
        reader.skipSpaces()
        guard reader.peek == "=" else {
            return malformed("malformed pragma: 'ignore' is not followed by '='", at: ignoreColumn)
        }
        reader.index += 1
        reader.skipSpaces()

        // The ids: tokens up to white space or a comma, separated by commas with optional spaces.
        var ids: [(text: String, column: Int)] = []
        var commaColumn: Int?
        while true {
            let start = reader.index
            while let scalar = reader.peek, scalar != " ", scalar != "\t", scalar != ",", scalar != "\r", scalar != "\n" {
                reader.index += 1
            }
            guard reader.index > start else {
                if let commaColumn {
                    return malformed("malformed pragma: a comma is followed by no rule id", at: commaColumn)
                }
                return malformed("malformed pragma: it names no rule id", at: ignoreColumn)
            }
            ids.append((String(String.UnicodeScalarView(reader.scalars[start..<reader.index])), start + 1))
            let afterID = reader.index
            reader.skipSpaces()
            guard reader.peek == "," else {
                reader.index = afterID
                break
            }
            commaColumn = reader.index + 1
            reader.index += 1
            reader.skipSpaces()
        }
        for (text, column) in ids {
            let id = text.uppercased()
            if !isRuleID(id) {
                pragma.problems.append(Problem(message: "'\(text)' is not a rule id (SB and three digits)", column: column))
            } else {
                pragma.ruleIDs.append(id)
                if !knownRuleIDs.contains(id) {
                    pragma.problems.append(Problem(message: "\(id) is not a stagebuild rule", column: column))
                }
            }
        }

        reader.skipSpaces()
        let reasonColumn = reader.index + 1
        pragma.reason = String(String.UnicodeScalarView(reader.scalars[reader.index...])).trimmingLineWhitespace()
        if pragma.reason.isEmpty {
            pragma.problems.append(
                Problem(message: "pragma gives no reason; write why after the rule ids", column: keywordColumn))
        } else if let first = pragma.reason.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).first,
            isRuleID(first.uppercased())
        {
            pragma.problems.append(
                Problem(
                    message: "'\(first)' after the rule ids is read as the reason; separate rule ids with commas",
                    column: reasonColumn))
        }
        return pragma
    }

    /// The rule ids a comment switches off.
    ///
    /// - Parameter comment: The comment's text after `#`, e.g. `stagebuild ignore=SB001 pinned by lock`.
    /// - Returns: The well-formed ids, upper-cased, e.g. `["SB001"]`; empty when the comment is
    ///   no pragma or a malformed one.
    public static func ignoredRuleIDs(in comment: String) -> [String] {
        parse("#" + comment, knownRuleIDs: []).map(\.ruleIDs) ?? []
    }

    /// True for a comment that switches rules off for the instruction below it: a stagebuild
    /// pragma that names rules, or hadolint's `# hadolint ignore=DL3008,...` (hadolint's
    /// README, "Ignoring rules"). compose keeps both directly above their instruction.
    ///
    /// - Parameter comment: A comment's text after `#`, trimmed.
    public static func isIgnorePragma(_ comment: String) -> Bool {
        if !ignoredRuleIDs(in: comment).isEmpty { return true }
        let words = comment.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count >= 2 && words[0] == "hadolint" && words[1].hasPrefix("ignore=")
    }

    /// Whether a text is `SB` + three digits.
    ///
    /// - Parameter text: The text, e.g. `SB001`.
    public static func isRuleID(_ text: String) -> Bool {
        text.count == 5 && text.hasPrefix("SB") && text.dropFirst(2).allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A cursor over a line's Unicode scalars.
    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        /// Consumes the run of spaces, tabs, colons and dashes between two words of a pragma;
        /// only spaces and tabs are well-formed there.
        mutating func separator() -> String {
            let start = index
            while let scalar = peek, scalar == " " || scalar == "\t" || scalar == ":" || scalar == "-" { index += 1 }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }

        mutating func skipSpaces() {
            while let scalar = peek, scalar == " " || scalar == "\t" { index += 1 }
        }

        /// Consumes a word, compared without regard to ASCII case, when it comes next and is
        /// not the start of a longer word.
        mutating func consumeWord(_ word: String) -> Bool {
            let target = Array(word.unicodeScalars)
            guard index + target.count <= scalars.count else { return false }
            for (offset, expected) in target.enumerated() {
                guard String(scalars[index + offset]).lowercased() == String(expected) else { return false }
            }
            if index + target.count < scalars.count {
                let next = scalars[index + target.count]
                if next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" { return false }
            }
            index += target.count
            return true
        }
    }
}
