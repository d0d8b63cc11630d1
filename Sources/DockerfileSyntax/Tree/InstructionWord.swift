/// One word of an instruction (a flag, a flag's value, an argument, a key or value of a pair)
/// with where it is written in the instruction's logical line.
public struct InstructionWord: Sendable, Hashable {
    /// The word as the parser gives it: quotes kept in arguments, removed in flags; a JSON
    /// element decoded.
    public var text: String
    /// Where the word is written in ``Instruction/logicalLine``, 0-based, in Unicode scalars;
    /// `nil` when the text given is not written there as it stands (a JSON element with
    /// escapes, a flag value with quotes).
    public var range: Range<Int>?

    /// Creates a word.
    ///
    /// - Parameters:
    ///   - text: The word.
    ///   - range: Where it is written in the logical line, or `nil`.
    public init(text: String, range: Range<Int>?) {
        self.text = text
        self.range = range
    }
}

extension Instruction {
    /// The arguments with where each is written, found in order from ``argumentsOffset``: an
    /// argument the split keeps verbatim gets its exact range, and so does a JSON element
    /// written without escapes (the range of its text inside the quotes).
    public var argumentWords: [InstructionWord] {
        let line = logicalLine.scalars
        if isJSONForm {
            var searchFrom = argumentsOffset
            return arguments.map { argument in
                guard let start = Self.offset(of: "\"" + argument + "\"", in: line, from: searchFrom) else {
                    return InstructionWord(text: argument, range: nil)
                }
                let end = start + 1 + argument.unicodeScalars.count
                searchFrom = end + 1
                return InstructionWord(text: argument, range: start + 1..<end)
            }
        }
        return placed(arguments, in: line)
    }

    /// Words the split kept verbatim, each with its range: found in order from
    /// ``argumentsOffset``, each search starting where the word before it ended.
    ///
    /// - Parameters:
    ///   - words: The words in the order written.
    ///   - line: The logical line's scalars.
    func placed(_ words: [String], in line: [Unicode.Scalar]) -> [InstructionWord] {
        var searchFrom = argumentsOffset
        return words.map { word in
            guard !word.isEmpty, let start = Self.offset(of: word, in: line, from: searchFrom) else {
                return InstructionWord(text: word, range: nil)
            }
            let end = start + word.unicodeScalars.count
            searchFrom = end
            return InstructionWord(text: word, range: start..<end)
        }
    }

    /// The builder flags as written, quotes kept (``flags`` has them removed, as BuildKit reads
    /// them), in order; a flag whose place is unknown as read.
    public var writtenFlags: [String] {
        let line = logicalLine.scalars
        return flags.indices.map { index in
            guard flagRanges.indices.contains(index) else { return flags[index] }
            return String(String.UnicodeScalarView(line[flagRanges[index]]))
        }
    }

    /// A builder flag's value with where it is written, e.g. `build` in `--from=build`; `nil`
    /// when the flag is absent. The range is `nil` when the value is not written as it stands
    /// (it was quoted).
    ///
    /// - Parameter name: The flag name without dashes, e.g. `from`.
    public func flagWord(_ name: String) -> InstructionWord? {
        for (index, flag) in flags.enumerated() {
            let body = flag.drop(while: { $0 == "-" })
            let value: String
            if body == Substring(name) {
                value = ""
            } else if body.hasPrefix(name + "=") {
                value = String(body.dropFirst(name.count + 1))
            } else {
                continue
            }
            guard flagRanges.indices.contains(index) else { return InstructionWord(text: value, range: nil) }
            let written = flagRanges[index]
            let line = logicalLine.scalars
            let end = written.upperBound
            let start = end - value.unicodeScalars.count
            let verbatim = start >= written.lowerBound && line[start..<end].elementsEqual(value.unicodeScalars)
            return InstructionWord(text: value, range: verbatim ? start..<end : nil)
        }
        return nil
    }

    /// Where a word is in the file: its first scalar, or where the arguments start when its
    /// range is not known.
    ///
    /// - Parameter word: A word of this instruction.
    public func location(of word: InstructionWord) -> SourceLocation {
        lineMap.location(ofOffset: word.range?.lowerBound ?? argumentsOffset)
    }

    /// The exact place of a word in the file, for an edit; `nil` when its range is not known
    /// or it runs over a continuation onto another line.
    ///
    /// - Parameter word: A word of this instruction.
    public func sourceRange(of word: InstructionWord) -> SourceRange? {
        guard let range = word.range, !range.isEmpty, !lineMap.segments.isEmpty else { return nil }
        let start = lineMap.location(ofOffset: range.lowerBound)
        let end = lineMap.location(ofOffset: range.upperBound - 1)
        guard start.line == end.line, end.column - start.column == range.count - 1 else { return nil }
        return SourceRange(start: start, length: range.count)
    }
}
