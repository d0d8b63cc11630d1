/// An `apt-get` or `apt` command read into its subcommand, options and operands, for the apt
/// rules (SB003–SB006).
struct AptGetCommand: Sendable {
    /// The program, `apt-get` or `apt`.
    var program: String
    /// The subcommand word, e.g. `install`; `nil` when only options were given.
    var subcommand: ShellScript.Word?
    /// Option words as written, e.g. `-y`, `--no-install-recommends`.
    var options: [String]
    /// The values of `-o`/`--option` configuration options, e.g. `APT::Install-Recommends=false`.
    var configuration: [String]
    /// The words after the subcommand that are not options, e.g. package names.
    var operands: [ShellScript.Word]
    /// The release asked for with `-t`, `--target-release` or `--default-release`, e.g.
    /// `bookworm-backports` (apt-get(8)).
    var targetRelease: String?

    /// Reads a command, or returns `nil` when it does not run `apt-get` or `apt`.
    ///
    /// - Parameter command: A shell command.
    init?(_ command: ShellScript.Command) {
        guard let program = command.program, program == "apt-get" || program == "apt" else { return nil }
        self.program = program
        subcommand = nil
        options = []
        configuration = []
        operands = []
        targetRelease = nil
        let arguments = Array(command.arguments)
        let valued: Set<String> = [
            "-o", "--option", "-c", "--config-file", "-t", "--target-release", "--default-release",
        ]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            let text = word.text
            if text.hasPrefix("-") && text != "-" {
                options.append(text)
                var value: String?
                if valued.contains(text), index < arguments.count {
                    value = arguments[index].text
                    index += 1
                } else if text.hasPrefix("-o"), !text.hasPrefix("--"), text.count > 2 {
                    value = String(text.dropFirst(2))
                } else if text.hasPrefix("--option=") {
                    value = String(text.dropFirst("--option=".count))
                }
                if let value, text.hasPrefix("-o") || text.hasPrefix("--option") { configuration.append(value) }
                if let value, ["-t", "--target-release", "--default-release"].contains(text) { targetRelease = value }
                for long in ["--target-release=", "--default-release="] where text.hasPrefix(long) {
                    targetRelease = String(text.dropFirst(long.count))
                }
            } else if subcommand == nil {
                subcommand = word
            } else {
                operands.append(word)
            }
        }
    }

    /// The subcommand's text, e.g. `install`.
    var action: String? { subcommand?.text }
}
