import DockerfileSyntax

/// A Dockerfile, stage template or Stagefile as its meaning is read, by lint's rules and by
/// compose and lock: its instructions with their source positions, its build stages, the
/// variables each instruction sees, the images it names, its package pins, and the shell
/// commands its `RUN` instructions run (heredoc scripts included). The one model of a
/// Dockerfile's meaning; `DockerfileSyntax` holds its syntax.
///
/// A stage template without `FROM` is one build stage without a base; `FROM stage:NAME` and
/// `USE NAME` lines of a Stagefile name stage templates, not images, and rules skip them.
public struct DockerfileDocument: Sendable {
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
    ///     each part's so): the shell commands of its `RUN`s are then not read, nor its pragmas.
    public init(_ tree: DockerfileSyntaxTree, readsRunScripts: Bool = true) {
        self.tree = tree
        var entries: [Entry] = []
        for element in tree.elements {
            guard case .instruction(let instruction) = element.kind else { continue }
            entries.append(Entry(instruction: instruction))
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
        variables = VariableScope(
            entries: entries, stages: stages, stageOfEntry: stageOfEntry, unquote: tree.directives.escapeCharacter.unquoted)
        runScripts = readsRunScripts ? entries.indices.compactMap { Self.runScript(entries[$0], index: $0) } : []
        pragmas = readsRunScripts ? Self.pragmaComments(in: tree) : []
    }

    /// Whether the file has a `FROM` of its own (`FROM stage:NAME` counts): false for a layer template.
    var hasFrom: Bool { stages.contains { $0.from != nil } }

    /// One instruction with the source text it came from.
    struct Entry: Sendable {
        /// The instruction.
        var instruction: Instruction
        /// The keyword in upper case (`Instruction.kind`, computed once), for messages.
        var kind: String
        /// The keyword, `nil` for an unknown instruction: what rules compare.
        var keyword: Keyword? { instruction.knownKeyword }

        init(instruction: Instruction) {
            self.instruction = instruction
            kind = instruction.kind
        }

        /// Where the keyword starts.
        var start: SourceLocation { instruction.location }
    }

    /// The text after `=` of a `NAME=value` word with quotes removed, as BuildKit reads an
    /// `ARG` default or an `ENV` value.
    func unquoted(_ word: String) -> String {
        tree.directives.escapeCharacter.unquoted(word)
    }
}
