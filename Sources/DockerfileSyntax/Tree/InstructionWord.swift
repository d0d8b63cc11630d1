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
    /// The builder flags as written, quotes kept (``flags`` has them removed, as BuildKit reads
    /// them), in order; a flag whose place is unknown as read.
    public var writtenFlags: [String] {
        let line = logicalLine.scalars
        return flags.indices.map { index in
            guard flagRanges.indices.contains(index) else { return flags[index] }
            return String(String.UnicodeScalarView(line[flagRanges[index]]))
        }
    }

    /// A builder flag read as BuildKit's `BFlags` reads `--name=value`: its name without the
    /// dashes, and the value after the first `=` (`nil` for a flag written without one, `--link`).
    ///
    /// - Parameter index: The flag's index in ``flags``.
    public func flag(at index: Int) -> (name: Substring, value: Substring?) {
        let body = flags[index].drop { $0 == "-" }
        guard let equals = body.firstIndex(of: "=") else { return (body, nil) }
        return (body[..<equals], body[body.index(after: equals)...])
    }

    /// A builder flag's value with where it is written, e.g. `build` in `--from=build`; `nil`
    /// when the flag is absent. The range is `nil` when the value is not written as it stands
    /// at the flag's end (it was quoted or escaped).
    ///
    /// - Parameter name: The flag name without dashes, e.g. `from`.
    public func flagWord(_ name: String) -> InstructionWord? {
        for (index, flag) in flags.enumerated() {
            let (flagName, written) = self.flag(at: index)
            guard flagName == name else { continue }
            let value = String(written ?? "")
            // The value ends the flag: it is written as it stands when its scalars are the
            // flag's last ones, one after another.
            let count = flag.unicodeScalars.count
            let range = writtenRange(ofFlag: index, scalars: count - value.unicodeScalars.count..<count)
            return InstructionWord(text: value, range: range?.upperBound == flagRanges[index].upperBound ? range : nil)
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
