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

    /// Text of a PAC answer as reports show it: in each `;`-separated entry that holds an `@`,
    /// everything between the keyword and the last `@` is user info no device reads but a script
    /// may hold (`PROXY alice:secret@p.corp:3128`, however spaced) and shows as `***`; the user
    /// info of any URL in it is removed too.
    ///
    /// - Parameter text: the answer, or a piece of it.
    /// - Returns: the text with every credential replaced by `***`.
    public static func shown(_ text: String) -> String {
        let pieces = text.split(separator: ";", omittingEmptySubsequences: false).map { piece -> String in
            guard let at = piece.lastIndex(of: "@") else { return String(piece) }
            let leading = piece.prefix { $0 == " " || $0 == "\t" }
            let keyword = piece.dropFirst(leading.count).prefix { $0 != " " && $0 != "\t" && $0 != "@" }
            let afterKeyword = piece.dropFirst(leading.count + keyword.count)
            let spaces = afterKeyword.prefix { $0 == " " || $0 == "\t" }
            return String(leading) + keyword + spaces + "***" + piece[at...]
        }
        return Redaction.text(pieces.joined(separator: ";"))
    }
}
