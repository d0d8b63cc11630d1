import Foundation
import StageKit

/// The `stagebuild` command: dispatches to a subcommand and turns its result into an exit
/// status. Only this layer prints or exits.
public enum StagebuildCommand {
    /// The tool's version, printed by `--version`.
    public static let version = "0.1.0"

    static let subcommands: [any Subcommand.Type] = [
        ComposeCommand.self, DiffCommand.self, VerifyCommand.self, StagesCommand.self, LintCommand.self, LockCommand.self,
        ProbeCommand.self,
        ServeCommand.self,
        ExporterCommand.self,
    ]

    /// Runs `stagebuild` with this process's arguments and environment, then exits.
    public static func exitAfterRunning() -> Never {
        let status = run(Array(CommandLine.arguments.dropFirst()), context: .process())
        exit(status.rawValue)
    }

    /// Runs `stagebuild` in-process.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - context: Environment, directory and output streams.
    /// - Returns: The exit status (sysexits, see `ExitCode`).
    public static func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        let status = dispatch(arguments, context: context)
        // Output that did not reach its reader (a full disk, a closed pipe) is an I/O error,
        // whatever the command thought of its own work.
        if let failure = context.standardOutput.writeFailure {
            return report(.error(.ioError, "cannot write to standard output: \(failure)"), context: context)
        }
        return status
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let first = arguments.first else {
            context.standardError.write(overview)
            return .usage
        }
        switch first {
        case "-h", "--help", "help":
            if first == "help", arguments.count > 1, let command = subcommand(named: arguments[1]) {
                context.standardOutput.write(command.helpText)
            } else {
                context.standardOutput.write(overview)
            }
            return .success
        case "--version":
            context.standardOutput.write("stagebuild \(version)\n")
            return .success
        default:
            break
        }
        guard let command = subcommand(named: first) else {
            let hint =
                NameSuggestions.closest(to: first, in: subcommands.map { $0.name }, limit: 1).first.map {
                    "; did you mean '\($0)'?"
                } ?? ""
            return report(
                .errors(
                    .usage, ["unknown command '\(first)'\(hint)"],
                    detail: "USAGE: stagebuild <command> [options]\nSee 'stagebuild --help'.\n"),
                context: context)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            context.standardOutput.write(command.helpText)
            return .success
        }
        do {
            let scanned = try ArgumentScanner(options: command.options).scan(rest)
            return try command.run(scanned, context: context)
        } catch {
            var failure = error
            if failure.showsUsage {
                failure.detail += "USAGE: stagebuild \(command.usage)\nSee 'stagebuild \(command.name) --help'.\n"
            }
            return report(failure, context: context)
        }
    }

    /// Writes a failure to standard error and gives its status: every command's failure ends here.
    private static func report(_ failure: CommandFailure, context: CommandContext) -> ExitCode {
        context.standardError.write(failure.rendered(color: context.usesColor))
        return failure.exitCode
    }

    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.name == name }
    }

    static var overview: String {
        var text = """
            OVERVIEW: Compose reproducible Dockerfiles from stage templates, lint them, and probe HTTP(S) through proxies.

            USAGE: stagebuild <command> [options]

            COMMANDS:

            """
        for command in subcommands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            OPTIONS:
              --version     Print the version and exit.
              -h, --help    Show this help and exit.

            See 'stagebuild <command> --help' for a command's options.
            Exit status: 0 ok, 1 a check failed, 64 usage, 65 bad input data, 69 service unavailable,
            70 internal error, 74 I/O error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).

            """
        return text
    }
}
