/// The parser directives of a Dockerfile: `# syntax=`, `# escape=` and `# check=`.
///
/// Directives are read only from the top of the file, before any instruction, comment or
/// blank line; the first line that is not a directive ends them, and a name may appear once
/// (Dockerfile reference, "Parser directives"). Unknown names end the directive section, and
/// so does `check`, as in BuildKit v0.12.5 which did not know it yet.
public struct ParserDirectives: Sendable, Hashable {
    /// The `syntax` directive's value: the BuildKit frontend image, e.g. `docker/dockerfile:1`.
    public var syntax: String?
    /// The escape character, `\` unless `# escape=` chose the backtick.
    public var escapeCharacter: EscapeCharacter = .backslash
    /// The `check` directive's value, e.g. `skip=JSONArgsRecommended;error=true`.
    public var check: String?

    /// Creates directives; the defaults are those of a file without any.
    ///
    /// - Parameters:
    ///   - syntax: The `syntax` value, if any.
    ///   - escapeCharacter: The escape character.
    ///   - check: The `check` value, if any.
    public init(syntax: String? = nil, escapeCharacter: EscapeCharacter = .backslash, check: String? = nil) {
        self.syntax = syntax
        self.escapeCharacter = escapeCharacter
        self.check = check
    }
}

extension ParserDirectives {
    /// The directive a line has the form of, as (lower-cased name, value), whatever the name
    /// and wherever the line stands: `("syntax", "docker/dockerfile:1")` for
    /// `# syntax=docker/dockerfile:1`. Lint reads with it the comment lines that BuildKit took
    /// for comments because they came after the directive section.
    ///
    /// - Parameter line: One line, leading white space and line end removed.
    /// - Returns: The name and value; `nil` for a line of another form.
    public static func directiveForm(of line: String) -> (name: String, value: String)? {
        DirectiveScanner.directive(in: Array(line.unicodeScalars)[...])
    }
}

/// The character that escapes the next one and, at the end of a line, continues it.
public enum EscapeCharacter: Character, Sendable, Hashable, CaseIterable {
    /// `\`, the default.
    case backslash = "\\"
    /// `` ` ``, chosen by `# escape=`` ` `` in Windows-style Dockerfiles.
    case backtick = "`"

    /// The character as a Unicode scalar.
    public var scalar: Unicode.Scalar { self == .backslash ? "\\" : "`" }
}

/// Reads directive lines one at a time, as BuildKit does while it scans the top of a file.
struct DirectiveScanner {
    private(set) var directives = ParserDirectives()
    private(set) var isDone = false
    private var seen: Set<String> = []

    /// The directive a line declares, if it is one, as (lower-cased name, value).
    static func directive(in line: ArraySlice<Unicode.Scalar>) -> (name: String, value: String)? {
        // ^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$  (BuildKit's reDirectives; \s is ASCII)
        var index = line.startIndex
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
        }
        guard index < line.endIndex, line[index] == "#" else { return nil }
        index += 1
        while index < line.endIndex, isSpace(line[index]) { index += 1 }
        let nameStart = index
        guard index < line.endIndex, line[index].isASCIILetter else { return nil }
        while index < line.endIndex, line[index].isASCIILetter || line[index].isASCIIDigit { index += 1 }
        let name = String(scalars: line[nameStart..<index]).lowercased()
        while index < line.endIndex, isSpace(line[index]) { index += 1 }
        guard index < line.endIndex, line[index] == "=" else { return nil }
        index += 1
        while index < line.endIndex, isSpace(line[index]) { index += 1 }
        var end = line.endIndex
        while end > index, isSpace(line[end - 1]) { end -= 1 }
        guard end > index else { return nil }
        return (name, String(scalars: line[index..<end]))
    }

    /// Looks at one line while directives may still appear.
    ///
    /// - Returns: The directive the line declared, or `nil` when it was not one (which ends
    ///   the directive section).
    /// - Throws: A message when a directive repeats or names an invalid escape character.
    mutating func consider(_ line: ArraySlice<Unicode.Scalar>) throws(DirectiveFault) -> (name: String, value: String)? {
        guard !isDone else { return nil }
        guard let (name, value) = Self.directive(in: line),
            ["syntax", "escape", "check"].contains(name)
        else {
            isDone = true
            return nil
        }
        guard seen.insert(name).inserted else {
            throw DirectiveFault(message: "only one \(name) parser directive can be used")
        }
        switch name {
        case "escape":
            guard value.count == 1, let escape = EscapeCharacter(rawValue: Character(value)) else {
                throw DirectiveFault(message: "invalid escape token '\(value)' does not match ` or \\")
            }
            directives.escapeCharacter = escape
        case "syntax":
            directives.syntax = value
        default:
            // BuildKit before v0.13 did not know `check`, so the directive section ended
            // there; the parser we are checked against (v0.12.5) still reads files that way.
            directives.check = value
            isDone = true
        }
        return (name, value)
    }
}

/// A directive that BuildKit rejects.
struct DirectiveFault: Error {
    var message: String
}
