import CYAML

/// YAML text that cannot be read: libyaml's syntax error, or a rule or limit of
/// ``YAMLDocument/parse(_:)`` (one document, unique keys, size and depth).
///
/// Printed as `LINE:COLUMN: message`, e.g.
/// `1:5: mapping values are not allowed in this context`.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong. For a syntax error, libyaml's problem, then in parentheses what libyaml
    /// was reading and where that started when it says so, e.g. `found unexpected end of stream
    /// (while scanning a quoted scalar at 1:4)`.
    public var message: String
    /// Where the problem is.
    public var mark: YAMLMark

    /// An error at a mark, e.g. for a config reader's own checks of a node (``YAMLNode/mark``).
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - mark: Where.
    public init(message: String, mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }

    /// `LINE:COLUMN: message`.
    public var description: String { "\(mark): \(message)" }

    /// The error a libyaml parser stopped with.
    ///
    /// - Parameters:
    ///   - parser: A parser whose `yaml_parser_parse` returned 0.
    ///   - text: Its whole input, for the marks of reader errors and the character at fault.
    init(parser: yaml_parser_t, text: String) {
        let problem = parser.problem.map { String(cString: $0) } ?? "libyaml reports an error without a message"
        switch parser.error {
        case YAML_READER_ERROR:
            // The reader names the offending character by its value and its UTF-8 byte offset only.
            let value = parser.problem_value < 0 ? "" : " (U+" + Self.hex(parser.problem_value) + ")"
            self.init(message: problem + value, mark: YAMLMark(utf8Offset: parser.problem_offset, in: text))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            var message = problem
            if let context = parser.context {
                let contextMark = YAMLMark(parser.context_mark)
                let at = contextMark == YAMLMark(parser.problem_mark) ? "" : " at \(contextMark)"
                message += " (\(String(cString: context))\(at))"
            }
            if Self.holdsTab(text, atCharacter: Int(parser.problem_mark.index)) {
                // A tab that indents is the usual cause of such errors, and libyaml does not name it.
                message += "; the character there is a tab, and YAML indents with spaces only (YAML 1.2.2, section 6.1)"
            }
            self.init(message: message, mark: YAMLMark(parser.problem_mark))
        default:
            // YAML_MEMORY_ERROR: an allocation failed, which stops a Swift program anywhere else too.
            fatalError("libyaml could not allocate memory while reading \(text.utf8.count) bytes")
        }
    }

    /// Whether the Unicode scalar at a libyaml mark's index (which counts scalars after a
    /// leading byte order mark) is a tab.
    private static func holdsTab(_ text: String, atCharacter index: Int) -> Bool {
        let scalars = text.unicodeScalars.first == "\u{FEFF}" ? text.unicodeScalars.dropFirst() : text.unicodeScalars[...]
        return scalars.dropFirst(index).first == "\t"
    }

    /// At least four upper-case hex digits, as Unicode writes code points.
    private static func hex(_ value: Int32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
