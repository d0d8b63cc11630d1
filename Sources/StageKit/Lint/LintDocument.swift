import DockerfileSyntax

/// A Dockerfile, stage template or Stagefile as lint rules read it: its instructions with
/// their source positions, its build stages, the images it names, and the shell commands its
/// `RUN` instructions run (heredoc scripts included).
///
/// A stage template without `FROM` is one build stage without a base; `FROM stage:NAME` and
/// `USE NAME` lines of a Stagefile name stage templates, not images, and rules skip them.
public struct LintDocument: Sendable {
    /// The syntax tree the document was read from.
    public let tree: DockerfileSyntaxTree
    /// Every instruction with its source text, in file order.
    let entries: [Entry]
    /// The build stages in file order. Instructions before the first `FROM` (global `ARG`s,
    /// or all of a layer template) form a first stage without a `FROM`.
    let stages: [BuildStage]
    /// The index in `stages` of each instruction's build stage, by its index in `entries`.
    let stageOfEntry: [Int]
    /// The `ARG` and `ENV` values each instruction sees.
    let variables: VariableScope
    /// The shell commands of every `RUN` (and `ONBUILD RUN`), one script per instruction.
    let runScripts: [RunScript]
    /// The ignore pragmas, well-formed or not, with the instructions they apply to.
    let pragmas: [PragmaComment]

    /// Reads a parsed file. Everything rules ask for often is computed here once, so that no
    /// rule needs to scan the whole file per instruction: linting stays linear in the file's size.
    ///
    /// - Parameters:
    ///   - tree: The syntax tree from `DockerfileParser.parse(_:)`.
    ///   - readsRunScripts: False for a document asked only for its images (compose reads
    ///     each part's so): the shell commands of its `RUN`s are then not read, nor the
    ///     scalars of each line kept for the text searches of lint rules, nor its pragmas.
    public init(_ tree: DockerfileSyntaxTree, readsRunScripts: Bool = true) {
        self.tree = tree
        let escape = tree.directives.escapeCharacter.scalar
        var entries: [Entry] = []
        for element in tree.elements {
            guard case .instruction(let instruction) = element.kind else { continue }
            entries.append(Entry(instruction: instruction, keepsScalars: readsRunScripts))
        }
        self.entries = entries
        let stages = Self.buildStages(entries)
        self.stages = stages
        var stageOfEntry = Array(repeating: 0, count: entries.count)
        for (stageIndex, stage) in stages.enumerated() {
            for entryIndex in stage.entryIndices { stageOfEntry[entryIndex] = stageIndex }
            if let fromIndex = stage.fromIndex { stageOfEntry[fromIndex] = stageIndex }
        }
        self.stageOfEntry = stageOfEntry
        let lexer = ShellWordLexer(escape: escape)
        variables = VariableScope(entries: entries, stages: stages, stageOfEntry: stageOfEntry) { word in
            (try? lexer.word(word)) ?? word
        }
        runScripts = readsRunScripts ? entries.indices.compactMap { Self.runScript(entries[$0], index: $0) } : []
        pragmas = readsRunScripts ? Self.pragmaComments(in: tree) : []
    }

    /// Whether the file has a `FROM` of its own (`FROM stage:NAME` counts): false for a layer template.
    var hasFrom: Bool { stages.contains { $0.from != nil } }

    /// One instruction with the source text it came from.
    struct Entry: Sendable {
        /// The instruction.
        var instruction: Instruction
        /// The keyword in upper case (`Instruction.kind`, computed once).
        var kind: String
        /// The logical line's Unicode scalars, kept for the offset searches of a document that
        /// is linted; empty for one read only for its images.
        private var keptScalars: [Unicode.Scalar]
        /// Maps offsets in the instruction's logical line and heredoc bodies to the file.
        var map: SourceMap

        init(instruction: Instruction, keepsScalars: Bool = true) {
            self.instruction = instruction
            kind = instruction.kind
            keptScalars = keepsScalars ? instruction.logicalLine.scalars : []
            map = SourceMap(instruction)
        }

        /// The logical line's Unicode scalars.
        var scalars: [Unicode.Scalar] { keptScalars.isEmpty ? instruction.logicalLine.scalars : keptScalars }

        /// Where the keyword starts.
        var start: SourceLocation { map.location(ofLogicalOffset: 0) }

        /// Where a text first occurs in the logical line at or after an offset, or the
        /// keyword's position when it does not occur (it was written with quotes, say).
        ///
        /// - Parameters:
        ///   - needle: The text to find.
        ///   - offset: The 0-based offset in the logical line to search from.
        func location(of needle: String, from offset: Int = 0) -> SourceLocation {
            self.offset(of: needle, from: offset).map(map.location(ofLogicalOffset:)) ?? start
        }

        /// The 0-based offset of a text in the logical line at or after `from`, in Unicode scalars.
        func offset(of needle: String, from: Int = 0) -> Int? {
            Instruction.offset(of: needle, in: scalars, from: from)
        }

        /// The offset in the logical line where a trailing argument text starts: BuildKit
        /// keeps the rest of the line after the flags, trimmed, as a shell-form command.
        func offset(ofTrailing text: String) -> Int {
            let line = scalars
            var end = line.count
            while end > 0, line[end - 1].properties.isWhitespace { end -= 1 }
            return max(0, end - text.unicodeScalars.count)
        }
    }

    /// The text after `=` of a `NAME=value` word with quotes removed, as BuildKit reads an
    /// `ARG` default or an `ENV` value.
    func unquoted(_ word: String) -> String {
        (try? ShellWordLexer(escape: tree.directives.escapeCharacter.scalar).word(word)) ?? word
    }
}
