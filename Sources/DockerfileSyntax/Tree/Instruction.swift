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
    public var flags: [String]
    /// The arguments, split as BuildKit's parser splits them for this keyword.
    public var arguments: [String]
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
    public var flagRanges: [Range<Int>]
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
    ///   - flags: Builder flags.
    ///   - arguments: The split arguments.
    ///   - isJSONForm: Whether the arguments were a JSON array.
    ///   - heredocs: Heredocs that follow the line.
    ///   - logicalLine: The joined instruction line.
    ///   - startLine: The 1-based first line.
    ///   - endLine: The 1-based last line.
    ///   - onbuildTrigger: For `ONBUILD`, the registered instruction.
    ///   - lineMap: Where the logical line comes from in the file.
    ///   - continuesPastEndOfFile: Whether the file ended inside a continuation.
    ///   - flagRanges: Where each flag is written in the logical line.
    ///   - argumentsOffset: Where the arguments start in the logical line.
    ///   - escapeCharacter: The file's escape character.
    public init(
        keyword: String, flags: [String] = [], arguments: [String] = [], isJSONForm: Bool = false,
        heredocs: [Heredoc] = [], logicalLine: String = "", startLine: Int = 0, endLine: Int = 0,
        onbuildTrigger: Instruction? = nil, lineMap: LogicalLineMap = LogicalLineMap(segments: [], lineCount: 0),
        continuesPastEndOfFile: Bool = false, flagRanges: [Range<Int>] = [], argumentsOffset: Int? = nil,
        escapeCharacter: Unicode.Scalar = "\\"
    ) {
        self.keyword = keyword
        self.knownKeyword = Keyword(written: keyword)
        self.flags = flags
        self.arguments = arguments
        self.isJSONForm = isJSONForm
        self.heredocs = heredocs
        self.logicalLine = logicalLine
        self.startLine = startLine
        self.endLine = endLine
        self.trigger = onbuildTrigger.map { [$0] } ?? []
        self.lineMap = lineMap
        self.continuesPastEndOfFile = continuesPastEndOfFile
        self.flagRanges = flagRanges
        self.argumentsOffset = argumentsOffset ?? logicalLine.unicodeScalars.count
        self.escapeCharacter = escapeCharacter
    }

    /// The 0-based offset of a word in a logical line's scalars at or after `from`: how the
    /// typed views place the words the split kept verbatim (the one search of its kind).
    ///
    /// - Parameters:
    ///   - needle: The text to find.
    ///   - line: The logical line's Unicode scalars.
    ///   - from: The 0-based offset to search from.
    static func offset(of needle: String, in line: [Unicode.Scalar], from: Int = 0) -> Int? {
        let target = needle.scalars
        guard !target.isEmpty, target.count <= line.count else { return nil }
        var index = max(from, 0)
        while index + target.count <= line.count {
            if line[index] == target[0], line[index..<index + target.count].elementsEqual(target) { return index }
            index += 1
        }
        return nil
    }

    /// The value of a builder flag, e.g. `build` for `--from=build`; `nil` when absent.
    ///
    /// - Parameter name: The flag name without dashes, e.g. `from`.
    /// - Returns: The text after `=`, an empty string for a flag written without a value.
    public func flag(_ name: String) -> String? {
        for flag in flags {
            let body = flag.drop(while: { $0 == "-" })
            if body == Substring(name) { return "" }
            if body.hasPrefix(name + "=") { return String(body.dropFirst(name.count + 1)) }
        }
        return nil
    }
}
