import DockerfileSyntax

extension DockerfileDocument {
    /// One ignore pragma of the file with its place, and the instruction it applies to.
    struct PragmaComment: Sendable {
        /// The pragma as read.
        var pragma: LintPragma
        /// The 1-based line of the comment.
        var line: Int
        /// The lines of the instruction that the run of comment lines holding the pragma ends
        /// at; `nil` when a blank line, a parser directive or the end of the file ends it, so
        /// the pragma applies to nothing.
        var instructionLines: ClosedRange<Int>?
        /// Whether it stands above the file's first instruction, where a global pragma belongs.
        var isAboveFirstInstruction: Bool
    }

    /// The pragmas of a file in order, read in one pass over its elements.
    ///
    /// - Parameter tree: The syntax tree.
    /// - Returns: Every comment line that is a pragma attempt, well-formed or not.
    static func pragmaComments(in tree: DockerfileSyntaxTree) -> [PragmaComment] {
        let known = Set(Linter.ruleDescriptions.map(\.id))
        var pragmas: [PragmaComment] = []
        var pending = 0
        var seenInstruction = false
        for element in tree.elements {
            switch element.kind {
            case .comment:
                let firstLine = element.text.prefix { $0 != "\n" && $0 != "\r\n" }
                if let pragma = LintPragma.parse(String(firstLine), knownRuleIDs: known) {
                    pragmas.append(
                        PragmaComment(
                            pragma: pragma, line: element.startLine, instructionLines: nil,
                            isAboveFirstInstruction: !seenInstruction))
                    pending += 1
                }
            case .instruction(let instruction):
                let lines = instruction.startLine...max(instruction.startLine, instruction.endLine)
                for index in pragmas.indices.suffix(pending) { pragmas[index].instructionLines = lines }
                pending = 0
                seenInstruction = true
            case .blank, .directive:
                pending = 0
            }
        }
        return pragmas
    }
}
