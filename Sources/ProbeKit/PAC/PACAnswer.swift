import Curl

/// What `FindProxyForURL` returned, read as devices read it: entries separated by `;`, tried in
/// order. An entry that cannot be read is skipped, as Chrome's `ProxyList::SetFromPacString` and
/// Firefox skip it; an answer with no entry left is the PAC's failure.
public struct PACAnswer: Sendable, Equatable {
    /// The answer as the script returned it.
    public var text: String
    /// The entries that can be read, in order.
    public var entries: [PACEntry]
    /// The pieces that could not be read, as written.
    public var unreadable: [String]

    /// Reads an answer.
    ///
    /// - Parameter text: e.g. `"PROXY a:3128; PROXY b:8080; DIRECT"`; empty pieces are ignored.
    public init(parsing text: String) {
        self.text = text
        entries = []
        unreadable = []
        for piece in text.split(separator: ";") {
            let trimmed = piece.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            if let entry = PACEntry(parsing: trimmed) {
                entries.append(entry)
            } else {
                unreadable.append(String(trimmed.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
            }
        }
    }

    /// Text of a PAC answer as reports show it: an entry's user info (`PROXY user:secret@host:80`,
    /// which no device reads but a script may hold) redacted as a URL's is, `user:***@` or `***@`
    /// for a user name alone, and the user info of any URL in it removed.
    ///
    /// - Parameter text: the answer, or a piece of it.
    /// - Returns: the text with every credential replaced by `***`.
    public static func shown(_ text: String) -> String {
        var shown = ""
        var word = ""
        func flush() {
            if let at = word.lastIndex(of: "@") {
                let userInfo = word[..<at]
                let user = userInfo.firstIndex(of: ":").map { String(userInfo[..<$0]) + ":***" } ?? "***"
                shown += user + word[at...]
            } else {
                shown += word
            }
            word = ""
        }
        for character in text {
            if character == " " || character == "\t" || character == ";" {
                flush()
                shown.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return Redaction.text(shown)
    }
}
