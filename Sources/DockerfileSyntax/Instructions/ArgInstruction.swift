/// `ARG NAME[=DEFAULT] ...` (Dockerfile reference, "ARG"): one or more declarations.
public struct ArgInstruction: Sendable, Hashable {
    /// One declared build argument.
    public struct Declaration: Sendable, Hashable {
        /// The whole word as written, e.g. `VERSION="1.2"`.
        public var word: InstructionWord
        /// The name, e.g. `VERSION`.
        public var name: InstructionWord
        /// The default as written after `=`, quotes kept, e.g. `"1.2"`; `nil` without `=`.
        public var defaultValue: InstructionWord?
    }

    /// The declarations in order.
    public var declarations: [Declaration]
}

extension Instruction {
    /// The instruction read as `ARG`; `nil` for any other keyword.
    public var asArg: ArgInstruction? {
        guard knownKeyword == .arg else { return nil }
        let declarations = argumentWords.map { word in
            let text = word.text
            guard let equals = text.firstIndex(of: "=") else {
                return ArgInstruction.Declaration(word: word, name: word, defaultValue: nil)
            }
            let nameLength = text[..<equals].unicodeScalars.count
            let name = InstructionWord(
                text: String(text[..<equals]), range: word.range.map { $0.lowerBound..<$0.lowerBound + nameLength })
            let value = InstructionWord(
                text: String(text[text.index(after: equals)...]),
                range: word.range.map { $0.lowerBound + nameLength + 1..<$0.upperBound })
            return ArgInstruction.Declaration(word: word, name: name, defaultValue: value)
        }
        return ArgInstruction(declarations: declarations)
    }
}
