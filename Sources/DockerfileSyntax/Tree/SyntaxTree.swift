import Serialization

/// A Dockerfile as a sequence of source elements that together hold every byte of the file,
/// so that printing an untouched tree gives back the same text.
public struct DockerfileSyntaxTree: Sendable, Hashable {
    /// The parser directives read from the top of the file.
    public var directives: ParserDirectives
    /// True when the file started with a UTF-8 byte order mark, which BuildKit skips.
    public var hasByteOrderMark: Bool
    /// The elements in file order.
    public var elements: [SyntaxElement]

    /// Creates a tree.
    ///
    /// - Parameters:
    ///   - directives: The parser directives.
    ///   - hasByteOrderMark: Whether to print a byte order mark first.
    ///   - elements: The elements in order.
    public init(directives: ParserDirectives, hasByteOrderMark: Bool = false, elements: [SyntaxElement]) {
        self.directives = directives
        self.hasByteOrderMark = hasByteOrderMark
        self.elements = elements
    }

    /// The instructions in file order.
    public var instructions: [Instruction] {
        elements.compactMap { element in
            if case .instruction(let instruction) = element.kind { return instruction }
            return nil
        }
    }

    /// The byte offset of a position in the file's UTF-8 (after a byte order mark), for tools
    /// that address text by bytes; `nil` for a position outside the file.
    ///
    /// - Parameter location: A 1-based line and column (columns in Unicode scalars).
    /// - Returns: The 0-based offset of the position's first byte.
    public func byteOffset(of location: SourceLocation) -> Int? {
        // The last element starting at or before the line.
        let low = elements.partitioningIndex { $0.startLine > location.line }
        guard low > 0 else { return nil }
        let element = elements[low - 1]
        var offset = element.byteOffset
        var line = element.startLine
        var column = 1
        for scalar in element.text.unicodeScalars {
            if line == location.line && column == location.column { return offset }
            offset += UTF8.width(scalar)
            if scalar == "\n" {
                if line == location.line { return nil }
                line += 1
                column = 1
            } else if line == location.line {
                column += 1
            }
        }
        return line == location.line && column == location.column ? offset : nil
    }

    /// The file's text: every element's source text in order.
    public var text: String {
        var text = hasByteOrderMark ? "\u{FEFF}" : ""
        for element in elements { text += element.text }
        return text
    }
}

/// One part of a Dockerfile's source: a directive, comment or blank line, or an instruction
/// with all the lines it spans.
public struct SyntaxElement: Sendable, Hashable {
    /// What the element is.
    public enum Kind: Sendable, Hashable {
        /// A parser directive line, e.g. `# syntax=docker/dockerfile:1` as (`syntax`, value).
        case directive(name: String, value: String)
        /// A comment line outside any instruction.
        case comment
        /// An empty or white-space-only line outside any instruction.
        case blank
        /// An instruction; its text includes continuation lines, comment and blank lines
        /// inside it, and heredoc bodies.
        case instruction(Instruction)
    }

    /// What the element is.
    public var kind: Kind
    /// The exact source text, line endings included.
    public var text: String
    /// The 1-based line where the element starts.
    public var startLine: Int
    /// Where the element's text starts in the file's UTF-8, after a byte order mark; 0 for an
    /// element the parser did not read.
    public var byteOffset: Int

    /// Creates an element.
    ///
    /// - Parameters:
    ///   - kind: What it is.
    ///   - text: Its source text with line endings.
    ///   - startLine: Its 1-based first line.
    ///   - byteOffset: Where its text starts in the file's UTF-8.
    public init(kind: Kind, text: String, startLine: Int, byteOffset: Int = 0) {
        self.kind = kind
        self.text = text
        self.startLine = startLine
        self.byteOffset = byteOffset
    }

    /// The comment's text after `#` and surrounding white space; `nil` for other elements.
    public var commentText: String? {
        guard case .comment = kind else { return nil }
        return String(text.drop(while: { $0 != "#" }).dropFirst()).trimmingCharacters(in: " \t\r\n")
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set.unicodeScalars)
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !characters.contains($0) }),
            let last = scalars.lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
