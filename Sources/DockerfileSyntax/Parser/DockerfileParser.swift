/// Parses Dockerfile text into a lossless syntax tree, reading it exactly as BuildKit's parser
/// (`frontend/dockerfile/parser`, the version the `dockerfile` PyPI package wraps) reads it:
/// directives, continuation lines, comments inside instructions, heredocs, JSON form and the
/// per-keyword argument splitting.
public enum DockerfileParser {
    /// The longest physical line BuildKit's line scanner accepts, in bytes with its newline.
    public static let maximumLineLength = 64 * 1024

    /// Parses a Dockerfile.
    ///
    /// - Parameter text: The file's text.
    /// - Returns: The syntax tree; its `text` is `text`.
    /// - Throws: `DockerfileSyntaxError` for everything BuildKit's parser rejects: a repeated
    ///   directive, an invalid escape character, a non-string JSON array, `ENV`/`LABEL`
    ///   without a value, an unterminated heredoc, a file without instructions, a line over
    ///   64 KiB.
    public static func parse(_ text: String) throws(DockerfileSyntaxError) -> DockerfileSyntaxTree {
        var scalars = text.scalars
        let hasByteOrderMark = scalars.first == "\u{FEFF}"
        if hasByteOrderMark { scalars.removeFirst() }
        var utf8 = Array(text.utf8)
        if hasByteOrderMark { utf8.removeFirst(3) }
        let lines = PhysicalLine.split(scalars)
        var state = ParseState(utf8: utf8, lines: lines, byteOrderMarkLength: hasByteOrderMark ? 3 : 0)
        try state.run()
        guard state.elements.contains(where: { if case .instruction = $0.kind { true } else { false } }) else {
            throw DockerfileSyntaxError("file with no instructions", at: SourceLocation(line: max(lines.count, 1), column: 1))
        }
        return DockerfileSyntaxTree(
            directives: state.directives.directives, hasByteOrderMark: hasByteOrderMark, elements: state.elements)
    }
}

/// One line of the file with its terminator (`\n`, `\r\n` or nothing at the end of the file).
struct PhysicalLine {
    var scalars: ArraySlice<Unicode.Scalar>
    /// Where the line's bytes are in the file's UTF-8 (after a byte order mark).
    var utf8: Range<Int>

    /// The line without trailing `\r` and `\n` (Go's `bytes.TrimRight(line, "\r\n")`).
    var content: ArraySlice<Unicode.Scalar> {
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[end - 1] == "\n" || scalars[end - 1] == "\r" { end -= 1 }
        return scalars[scalars.startIndex..<end]
    }

    /// The content without leading white space.
    var trimmedLeading: ArraySlice<Unicode.Scalar> { content.drop(while: { $0.isGoSpace }) }

    /// True for a comment line: `#` is its first non-space character.
    var isComment: Bool { trimmedLeading.first == "#" }

    static func split(_ scalars: [Unicode.Scalar]) -> [PhysicalLine] {
        var lines: [PhysicalLine] = []
        var start = 0
        var byte = 0
        var lineByte = 0
        for (index, scalar) in scalars.enumerated() {
            byte += UTF8.width(scalar)
            guard scalar == "\n" else { continue }
            lines.append(PhysicalLine(scalars: scalars[start...index], utf8: lineByte..<byte))
            start = index + 1
            lineByte = byte
        }
        if start < scalars.count { lines.append(PhysicalLine(scalars: scalars[start...], utf8: lineByte..<byte)) }
        return lines
    }
}

private struct ParseState {
    /// The whole file's UTF-8 (after a byte order mark): element text is cut from it.
    let utf8: [UInt8]
    let lines: [PhysicalLine]
    var index = 0
    var directives = DirectiveScanner()
    var elements: [SyntaxElement] = []
    /// The byte order mark's 3 bytes when the file has one: BuildKit counts them in the first
    /// line's length, as its scanner reads the line before the mark is removed.
    let byteOrderMarkLength: Int

    init(utf8: [UInt8], lines: [PhysicalLine], byteOrderMarkLength: Int) {
        self.utf8 = utf8
        self.lines = lines
        self.byteOrderMarkLength = byteOrderMarkLength
    }

    /// The text of lines `range`, line ends included: a copy of the file's own bytes.
    func text(ofLines range: Range<Int>) -> String {
        String(
            decoding: utf8[lines[range.lowerBound].utf8.lowerBound..<lines[range.upperBound - 1].utf8.upperBound], as: UTF8.self)
    }

    var escape: Unicode.Scalar { directives.directives.escapeCharacter.scalar }

    mutating func run() throws(DockerfileSyntaxError) {
        while index < lines.count {
            let start = index
            let line = lines[index]
            try checkLength(line, number: index + 1)
            let stripped = line.trimmedLeading
            let directive = try considerDirective(stripped, line: index + 1)
            var (kept, ends) = continuation(of: stripped.first == "#" ? [] : stripped)
            var logical = Array(kept)
            index += 1
            if ends && kept.isEmpty {
                let kind: SyntaxElement.Kind =
                    if let directive { .directive(name: directive.name, value: directive.value) } else if line.isComment {
                        .comment
                    } else { .blank }
                elements.append(
                    SyntaxElement(
                        kind: kind, text: text(ofLines: start..<start + 1), startLine: start + 1,
                        byteOffset: line.utf8.lowerBound))
                continue
            }
            let leading = line.content.count - stripped.count
            var segments = [LogicalLineMap.Segment(logicalStart: 0, line: start + 1, column: leading + 1)]
            while !ends && index < lines.count {
                let next = lines[index]
                try checkLength(next, number: index + 1)
                _ = try considerDirective(next.content, line: index + 1)
                index += 1
                if next.isComment || next.trimmedLeading.isEmpty { continue }
                let (piece, pieceEnds) = continuation(of: next.content)
                segments.append(LogicalLineMap.Segment(logicalStart: logical.count, line: index, column: 1))
                logical += piece
                ends = pieceEnds
            }
            let lineMap = LogicalLineMap(segments: segments, lineCount: index - start)
            var instruction = try makeInstruction(logical, startLine: start + 1)
            try readHeredocs(into: &instruction, startLine: start + 1)
            instruction.startLine = start + 1
            instruction.endLine = index
            instruction.lineMap = lineMap
            let triggerStart = instruction.argumentsOffset
            instruction.onbuildTrigger?.lineMap = lineMap.dropping(first: triggerStart)
            instruction.continuesPastEndOfFile = !ends
            let text = self.text(ofLines: start..<index)
            elements.append(
                SyntaxElement(
                    kind: .instruction(instruction), text: text, startLine: start + 1, byteOffset: lines[start].utf8.lowerBound))
        }
    }

    func checkLength(_ line: PhysicalLine, number: Int) throws(DockerfileSyntaxError) {
        if line.utf8.count + (number == 1 ? byteOrderMarkLength : 0) > DockerfileParser.maximumLineLength {
            throw DockerfileSyntaxError(
                "dockerfile line greater than max allowed size of \(DockerfileParser.maximumLineLength - 1)",
                at: SourceLocation(line: number, column: 1))
        }
    }

    mutating func considerDirective(
        _ text: ArraySlice<Unicode.Scalar>, line: Int
    ) throws(DockerfileSyntaxError) -> (name: String, value: String)? {
        do {
            return try directives.consider(text)
        } catch {
            throw DockerfileSyntaxError(error.message, at: SourceLocation(line: line, column: 1))
        }
    }

    /// Removes a trailing line continuation: the escape character followed only by spaces
    /// and tabs, unless it is itself escaped.
    ///
    /// - Returns: The text kept, and whether the line ends the instruction (false when it
    ///   continues onto the next line).
    func continuation(of text: ArraySlice<Unicode.Scalar>) -> (ArraySlice<Unicode.Scalar>, ends: Bool) {
        var end = text.endIndex
        while end > text.startIndex, text[end - 1] == " " || text[end - 1] == "\t" { end -= 1 }
        guard end > text.startIndex, text[end - 1] == escape else { return (text, true) }
        let escapeIndex = end - 1
        if escapeIndex > text.startIndex && text[escapeIndex - 1] == escape { return (text, true) }
        return (text[text.startIndex..<escapeIndex], false)
    }

    func makeInstruction(_ logical: [Unicode.Scalar], startLine: Int) throws(DockerfileSyntaxError) -> Instruction {
        do {
            return try InstructionReader(escape: escape).instruction(from: logical)
        } catch {
            throw DockerfileSyntaxError(error.message, at: SourceLocation(line: startLine, column: 1))
        }
    }

    mutating func readHeredocs(into instruction: inout Instruction, startLine: Int) throws(DockerfileSyntaxError) {
        let carrier = instruction.onbuildTrigger ?? instruction
        guard HeredocHeader.keywords.contains(carrier.knownKeyword), !carrier.isJSONForm else { return }
        var heredocs = HeredocHeader.heredocs(openedBy: instruction.logicalLine)
        for position in heredocs.indices {
            var terminated = false
            let bodyStart = index
            while index < lines.count {
                let line = lines[index]
                index += 1
                var candidate = line.content
                if heredocs[position].stripsLeadingTabs { candidate = candidate.drop(while: { $0 == "\t" }) }
                if String(scalars: candidate) == heredocs[position].name {
                    terminated = true
                    break
                }
            }
            guard terminated else {
                throw DockerfileSyntaxError("unterminated heredoc", at: SourceLocation(line: startLine, column: 1))
            }
            // The body: the lines before the delimiter line.
            heredocs[position].content = index - 1 > bodyStart ? text(ofLines: bodyStart..<index - 1) : ""
            heredocs[position].bodyLineOffset = bodyStart + 1 - startLine
        }
        if instruction.onbuildTrigger != nil {
            instruction.onbuildTrigger?.heredocs = heredocs
        } else {
            instruction.heredocs = heredocs
        }
    }
}

/// Turns one logical line into an instruction (BuildKit's `newNodeFromLine`).
struct InstructionReader {
    var escape: Unicode.Scalar

    func instruction(from line: [Unicode.Scalar]) throws(ArgumentSplitter.Fault) -> Instruction {
        // Indices below are offsets in the logical line: slices of it keep them.
        let trimmed = line.trimmingGoSpace()
        let keywordEnd = trimmed.firstIndex(where: \.isTokenWhitespace) ?? trimmed.endIndex
        let keyword = String(scalars: trimmed[..<keywordEnd])
        var flags: [BuilderFlags.Flag] = []
        var arguments = line[line.count...]
        if keywordEnd < trimmed.endIndex {
            var partStart = keywordEnd
            while partStart < trimmed.endIndex, line[partStart].isTokenWhitespace { partStart += 1 }
            let extracted = BuilderFlags.extract(from: trimmed[partStart...])
            flags = extracted.flags
            arguments = extracted.rest.trimmingGoSpace()
            if arguments.isEmpty { arguments = line[extracted.rest.endIndex..<extracted.rest.endIndex] }
        }
        if keyword.lowercased() == "onbuild" {
            let trigger = arguments.isEmpty ? nil : try instruction(from: Array(arguments))
            return Instruction(
                keyword: keyword, flags: flags,
                argumentWords: trigger == nil ? [] : [InstructionWord(text: "", range: nil)],
                logicalLine: String(scalars: line), onbuildTrigger: trigger,
                argumentsOffset: arguments.startIndex, escapeCharacter: escape)
        }
        let split = try ArgumentSplitter.split(keyword: Keyword(written: keyword), text: arguments, escape: escape)
        return Instruction(
            keyword: keyword, flags: flags, argumentWords: split.arguments, isJSONForm: split.isJSONForm,
            logicalLine: String(scalars: line), argumentsOffset: arguments.startIndex, escapeCharacter: escape)
    }
}
