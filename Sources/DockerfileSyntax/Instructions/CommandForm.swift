/// How `RUN`, `CMD`, `ENTRYPOINT`, `SHELL` and `HEALTHCHECK CMD` give their command
/// (Dockerfile reference, "Shell and exec form").
public enum CommandForm: Sendable, Hashable {
    /// A JSON array, run without a shell: `["nginx", "-g", "daemon off;"]`, elements decoded
    /// (each with its range when written without escapes).
    case exec([InstructionWord])
    /// A command line the shell runs, as written after the keyword and flags.
    case shell(InstructionWord)

    /// The exec form's elements, or the shell form's one command line.
    public var words: [InstructionWord] {
        switch self {
        case .exec(let words): words
        case .shell(let word): [word]
        }
    }

    /// The form of an instruction's arguments.
    ///
    /// - Parameters:
    ///   - instruction: An instruction whose arguments are a command.
    ///   - leading: How many arguments come before the command (1 for `HEALTHCHECK`'s `CMD`).
    /// - Returns: `nil` when the instruction has no command.
    init?(_ instruction: Instruction, dropping leading: Int = 0) {
        let words = Array(instruction.argumentWords.dropFirst(leading))
        if instruction.isJSONForm {
            self = .exec(words)
        } else if let line = words.first {
            self = .shell(line)
        } else {
            return nil
        }
    }
}

extension Instruction {
    /// The command of a `CMD`, `ENTRYPOINT` or `SHELL`; `nil` for other keywords and without
    /// arguments. (`RUN` gives its command through ``asRun``, `HEALTHCHECK` through
    /// ``asHealthcheck``.)
    public var command: CommandForm? {
        guard [.cmd, .entrypoint, .shell].contains(knownKeyword) else { return nil }
        return CommandForm(self)
    }
}
