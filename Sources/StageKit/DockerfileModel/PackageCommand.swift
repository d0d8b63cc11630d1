/// A package manager's or language tool's command (apk, dnf, npm, gem, go, cargo, …) read into
/// its subcommand, options and operands, for the rules that check what it installs.
///
/// A word that starts with `-` is an option, wherever it stands, and so is a `+TOOLCHAIN` word
/// before the subcommand (rustup's `cargo +nightly install`). An option named in the tool's
/// valued options takes the next word as its value unless it is written `--name=value`. The
/// first other word is the subcommand, the rest are operands. `--` ends the tool's own words:
/// what follows it is passed on (gem's build flags, say) and read as neither.
struct PackageCommand: Sendable {
    /// One option as written.
    struct Option: Sendable {
        /// The option's name, e.g. `--virtual` for `--virtual=.deps`.
        var name: String
        /// The value after `=`, or the next word for a valued option; `nil` without one.
        var value: String?
    }

    /// The program's file name, e.g. `apk`.
    var program: String
    /// The subcommand word, e.g. `add`; `nil` when only options were given.
    var subcommand: ShellScript.Word?
    /// The options in order.
    var options: [Option]
    /// The words after the subcommand that are neither options nor their values, e.g. packages.
    var operands: [ShellScript.Word]

    /// Reads a command, or returns `nil` when it runs none of the programs.
    ///
    /// - Parameters:
    ///   - command: A shell command.
    ///   - programs: The program names the tool goes by, e.g. `["dnf", "yum", "microdnf"]`.
    ///   - valuedOptions: The options that take the next word as their value.
    init?(_ command: ShellScript.Command, programs: Set<String>, valuedOptions: Set<String>) {
        guard let program = command.program, programs.contains(program) else { return nil }
        self.program = program
        subcommand = nil
        options = []
        operands = []
        var arguments = command.arguments
        while let word = arguments.popFirst() {
            let text = word.text
            if text == "--" { break }
            if (text.hasPrefix("-") && text != "-") || (subcommand == nil && text.hasPrefix("+")) {
                if let equals = text.firstIndex(of: "="), text.hasPrefix("--") {
                    options.append(Option(name: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
                } else {
                    let value = valuedOptions.contains(text) ? arguments.popFirst()?.text : nil
                    options.append(Option(name: text, value: value))
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

    /// Whether an option is given under any of its names, with or without a value.
    ///
    /// - Parameter names: The option's spellings, e.g. `["-v", "--version"]`.
    func has(_ names: Set<String>) -> Bool {
        options.contains { names.contains($0.name) }
    }

    /// The value of the last of an option's spellings given; `nil` when none is given with a value.
    ///
    /// - Parameter names: The option's spellings, e.g. `["-v", "--version"]`.
    func value(of names: Set<String>) -> String? {
        options.last { names.contains($0.name) && $0.value != nil }?.value
    }
}

extension PackageCommand {
    /// An `apk` command of Alpine's apk-tools, for SB018 and SB019.
    ///
    /// - Parameter command: A shell command.
    static func apk(_ command: ShellScript.Command) -> PackageCommand? {
        PackageCommand(command, programs: ["apk"], valuedOptions: apkValuedOptions)
    }

    /// A `dnf`, `yum` or `microdnf` command, for SB020 and SB021.
    ///
    /// - Parameter command: A shell command.
    static func dnf(_ command: ShellScript.Command) -> PackageCommand? {
        PackageCommand(command, programs: ["dnf", "yum", "microdnf"], valuedOptions: dnfValuedOptions)
    }

    /// An `npm` command, for SB008 and SB024.
    ///
    /// - Parameter command: A shell command.
    static func npm(_ command: ShellScript.Command) -> PackageCommand? {
        PackageCommand(command, programs: ["npm"], valuedOptions: npmValuedOptions)
    }

    /// npm's spellings of `install` (its command aliases).
    static let npmInstallAliases: Set<String> = [
        "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add",
    ]

    /// apk's global options and those of `apk add` that take a value.
    private static let apkValuedOptions: Set<String> = [
        "-X", "--repository", "-p", "--root", "--keys-dir", "--repositories-file", "--cache-dir", "--cache-max-age",
        "--arch", "--wait", "--progress-fd", "-t", "--virtual",
    ]

    /// The options of dnf, yum and microdnf that take a value.
    private static let dnfValuedOptions: Set<String> = [
        "-c", "--config", "--installroot", "--releasever", "--setopt", "--enablerepo", "--disablerepo", "--repo",
        "--repoid", "-x", "--exclude", "--downloaddir", "--destdir", "-d", "--debuglevel", "-e", "--errorlevel",
        "--forcearch", "--rpmverbosity", "--color", "--repofrompath",
    ]

    /// npm options that take the next word as their value.
    private static let npmValuedOptions: Set<String> = [
        "--prefix", "--registry", "--cache", "--workspace", "-w", "--omit", "--include", "--userconfig", "--loglevel",
        "--tag", "--only", "-C",
    ]
}
