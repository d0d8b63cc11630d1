/// One `stagebuild` subcommand: its name, help text, options and behaviour.
protocol Subcommand: SendableMetatype {
    /// The word after `stagebuild`, e.g. `compose`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The usage line without `stagebuild `, e.g. `compose [STAGEFILE] [-o FILE]`.
    static var usage: String { get }
    /// Paragraphs shown by `--help` between the usage line and the options.
    static var discussion: String { get }
    /// The options the command accepts (`--help` is added for every command).
    static var options: [ArgumentScanner.Option] { get }

    /// Runs the command.
    ///
    /// - Parameters:
    ///   - arguments: The scanned arguments.
    ///   - context: The environment and output streams.
    /// - Returns: The exit status.
    /// - Throws: `CommandFailure`: a usage error for a command line that cannot be run, or any
    ///   other failure, which `StagebuildCommand` writes and turns into the exit status.
    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode
}

extension Subcommand {
    static var helpOption: ArgumentScanner.Option {
        ArgumentScanner.Option(names: ["-h", "--help"], takesValue: false, help: "Show this help and exit.")
    }

    static var helpText: String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: stagebuild \(usage)\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        text += "\nOPTIONS:\n"
        for option in options + [helpOption] {
            var spelling = option.names.joined(separator: ", ")
            if option.takesValue { spelling += " \(option.valueName)" }
            let padding =
                spelling.count < 30
                ? String(repeating: " ", count: 30 - spelling.count) : "\n" + String(repeating: " ", count: 32)
            text += "  \(spelling)\(padding)\(option.help)\n"
        }
        return text
    }
}
