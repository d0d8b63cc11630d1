/// RFC 9110 section 5.6.2: `token = 1*tchar`, the syntax of field names and methods.
enum HTTPToken {
    private static let punctuation = Set("!#$%&'*+-.^_`|~".unicodeScalars)

    /// Whether `text` is a non-empty token.
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || punctuation.contains($0)
            }
    }

    /// Whether `text` may be a field value: no CR, LF or NUL (RFC 9110 section 5.5), so a value
    /// can never add a header line.
    static func isFieldValue(_ text: Substring) -> Bool {
        !text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
    }
}
