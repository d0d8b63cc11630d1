/// One Dockerfile instruction as BuildKit's parser sees it: keyword, builder flags, arguments
/// and heredocs, with the lines it spans.
///
/// Arguments are split per instruction the way BuildKit's line parsers split them (for
/// example `ENV a=1 b=2` gives `["a", "1", "b", "2"]` and a shell-form `RUN` gives one
/// string); quotes are kept, variables are not expanded.
public struct Instruction: Sendable, Hashable {
    /// The keyword as written, e.g. `from` or `RUN`.
    public let keyword: String
    /// The keyword, or `nil` for an unknown instruction; read once, when the instruction is made.
    public let knownKeyword: Keyword?
    /// Builder flags as written after quote removal, e.g. `--from=build`, `--mount=type=cache,target=/x`.
    public let flags: [String]
    /// The arguments, split as BuildKit's parser splits them for this keyword.
    public let arguments: [String]
    /// The arguments with where each is written, as the split found them: an argument the
    /// split keeps verbatim has its exact range, and so does a JSON element written without
    /// escapes (the range of its text inside the quotes).
    public let argumentWords: [InstructionWord]
    /// True when the arguments were written as a JSON array (exec form).
    public var isJSONForm: Bool
    /// The heredocs whose bodies follow the instruction line.
    public var heredocs: [Heredoc]
    /// The instruction line with continuations joined and comments inside it dropped
    /// (BuildKit's `Node.Original`, heredoc bodies not included).
    public var logicalLine: String
    /// The 1-based first line of the instruction.
    public var startLine: Int
    /// The 1-based last line, including continuation lines and heredoc bodies.
    public var endLine: Int
    /// Where each part of ``logicalLine`` is in the file (for an `ONBUILD` trigger, the rest of
    /// its `ONBUILD` line); empty for an instruction not read by the parser.
    public var lineMap: LogicalLineMap
    /// True when the file ended while the instruction's last line asked for a continuation
    /// (the escape character at its end, in any line-end form, possibly followed by comment
    /// or blank lines): BuildKit ends it there, but text pasted after it would be joined to it.
    public var continuesPastEndOfFile: Bool
    /// Where each of ``flags`` is written in ``logicalLine``: 0-based, in Unicode scalars, from
    /// its `--` to its end, quotes included.
    public let flagRanges: [Range<Int>]
    /// Where each scalar of each of ``flags`` is written in ``logicalLine``.
    let flagPositions: [[Int]]
    /// Where the arguments start in ``logicalLine`` (after the keyword and flags), 0-based, in
    /// Unicode scalars; the line's length when there are none.
    public var argumentsOffset: Int
    /// The file's escape character (`\\`, or `` ` `` after `# escape=``), which word splitting
    /// of the arguments needs.
    public var escapeCharacter: Unicode.Scalar
    private var trigger: [Instruction]

    /// The instruction that `ONBUILD` registers, e.g. `RUN make` in `ONBUILD RUN make`.
    public var onbuildTrigger: Instruction? {
        get { trigger.first }
        set { trigger = newValue.map { [$0] } ?? [] }
    }

    /// The keyword in upper case, for comparisons: `FROM`, `RUN`, …
    public var kind: String { knownKeyword?.rawValue ?? keyword.uppercased() }

    /// Where the keyword starts in the file.
    public var location: SourceLocation { lineMap.location(ofOffset: 0) }

    /// Creates an instruction.
    ///
    /// - Parameters:
    ///   - keyword: The keyword as written.
    ///   - flags: Builder flags with where they are written.
    ///   - argumentWords: The split arguments with where they are written.
    ///   - isJSONForm: Whether the arguments were a JSON array.
    ///   - heredocs: Heredocs that follow the line.
    ///   - logicalLine: The joined instruction line.
    ///   - startLine: The 1-based first line.
    ///   - endLine: The 1-based last line.
    ///   - onbuildTrigger: For `ONBUILD`, the registered instruction.
    ///   - lineMap: Where the logical line comes from in the file.
    ///   - continuesPastEndOfFile: Whether the file ended inside a continuation.
    ///   - argumentsOffset: Where the arguments start in the logical line.
    ///   - escapeCharacter: The file's escape character.
    init(
        keyword: String, flags: [BuilderFlags.Flag] = [], argumentWords: [InstructionWord] = [], isJSONForm: Bool = false,
        heredocs: [Heredoc] = [], logicalLine: String = "", startLine: Int = 0, endLine: Int = 0,
        onbuildTrigger: Instruction? = nil, lineMap: LogicalLineMap = LogicalLineMap(segments: [], lineCount: 0),
        continuesPastEndOfFile: Bool = false, argumentsOffset: Int? = nil, escapeCharacter: Unicode.Scalar = "\\"
    ) {
        self.keyword = keyword
        self.knownKeyword = Keyword(written: keyword)
        self.flags = flags.map(\.text)
        self.flagRanges = flags.map(\.range)
        self.flagPositions = flags.map(\.positions)
        self.arguments = argumentWords.map(\.text)
        self.argumentWords = argumentWords
        self.isJSONForm = isJSONForm
        self.heredocs = heredocs
        self.logicalLine = logicalLine
        self.startLine = startLine
        self.endLine = endLine
        self.trigger = onbuildTrigger.map { [$0] } ?? []
        self.lineMap = lineMap
        self.continuesPastEndOfFile = continuesPastEndOfFile
        self.argumentsOffset = argumentsOffset ?? logicalLine.unicodeScalars.count
        self.escapeCharacter = escapeCharacter
    }

    /// Where some of a flag's scalars are written in ``logicalLine``, when they are written as
    /// they stand: one after another, with no quote or escape between them.
    ///
    /// - Parameters:
    ///   - index: The flag's index in ``flags``.
    ///   - scalars: Offsets in the flag's text (Unicode scalars, quotes removed).
    /// - Returns: The range in the logical line; `nil` when it is not written as it stands or the
    ///   flag's place is not known; for no scalars, the place after the flag.
    func writtenRange(ofFlag index: Int, scalars: Range<Int>) -> Range<Int>? {
        guard flagPositions.indices.contains(index), scalars.upperBound <= flagPositions[index].count else { return nil }
        guard let first = flagPositions[index][scalars].first else {
            return flagRanges[index].upperBound..<flagRanges[index].upperBound
        }
        let written = first..<first + scalars.count
        let line = logicalLine.scalars
        let text = flags[index].unicodeScalars.dropFirst(scalars.lowerBound).prefix(scalars.count)
        guard flagPositions[index][scalars].elementsEqual(written), written.upperBound <= line.count,
            line[written].elementsEqual(text)
        else { return nil }
        return written
    }
}
