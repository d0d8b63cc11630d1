/// The ignore pragma `# stagebuild ignore=SB001[,SB002] reason`: a comment line directly
/// above an instruction (in the run of comment lines that ends at it) switches the named
/// rules off for that instruction only, as hadolint's `# hadolint ignore=DL3008` does.
///
/// Write the reason after the ids: `# stagebuild ignore=SB012 nginx starts as root, then drops to www-data`.
public enum LintPragma {
    /// The rule ids a comment switches off.
    ///
    /// - Parameter comment: The comment's text after `#`, e.g. `stagebuild ignore=SB001 pinned by lock`.
    /// - Returns: The ids, e.g. `["SB001"]`; empty when the comment is no pragma or names no
    ///   well-formed id (`SB` + three digits).
    public static func ignoredRuleIDs(in comment: String) -> [String] {
        let words = comment.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, words[0] == "stagebuild", words[1].hasPrefix("ignore=") else { return [] }
        let ids = words[1].dropFirst("ignore=".count).split(separator: ",").map(String.init)
        guard !ids.isEmpty, ids.allSatisfy(isRuleID) else { return [] }
        return ids
    }

    /// Whether a text is `SB` + three digits.
    ///
    /// - Parameter text: The text, e.g. `SB001`.
    public static func isRuleID(_ text: String) -> Bool {
        text.count == 5 && text.hasPrefix("SB") && text.dropFirst(2).allSatisfy { $0.isASCII && $0.isNumber }
    }
}
