/// One Dockerfile instruction as BuildKit's parser sees it: keyword, builder flags, arguments
/// and heredocs, with the lines it spans.
///
/// Arguments are split per instruction the way BuildKit's line parsers split them (for
/// example `ENV a=1 b=2` gives `["a", "1", "b", "2"]` and a shell-form `RUN` gives one
/// string); quotes are kept, variables are not expanded.
public struct Instruction: Sendable, Hashable {
    /// The keyword as written, e.g. `from` or `RUN`.
    public var keyword: String
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
    private var trigger: [Instruction]

    /// The instruction that `ONBUILD` registers, e.g. `RUN make` in `ONBUILD RUN make`.
    public var onbuildTrigger: Instruction? { trigger.first }

    /// The keyword in upper case, for comparisons: `FROM`, `RUN`, …
    public var kind: String { keyword.uppercased() }

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
    public init(
        keyword: String, flags: [String] = [], arguments: [String] = [], isJSONForm: Bool = false,
        heredocs: [Heredoc] = [], logicalLine: String = "", startLine: Int = 0, endLine: Int = 0,
        onbuildTrigger: Instruction? = nil
    ) {
        self.keyword = keyword
        self.flags = flags
        self.arguments = arguments
        self.isJSONForm = isJSONForm
        self.heredocs = heredocs
        self.logicalLine = logicalLine
        self.startLine = startLine
        self.endLine = endLine
        self.trigger = onbuildTrigger.map { [$0] } ?? []
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
