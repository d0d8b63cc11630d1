import StageKit

/// Reads a command's arguments against its declared options: `--name value`, `--name=value`,
/// `-o value`, repeatable options, boolean flags, and `--` before positional arguments that
/// start with a dash.
struct ArgumentScanner {
    /// One option a command accepts.
    struct Option {
        /// Every spelling, e.g. `["-o", "--output"]`; the first long one names it in results.
        var names: [String]
        /// Whether it takes a value.
        var takesValue: Bool
        /// The value's placeholder in help, e.g. `FILE`.
        var valueName = ""
        /// One line for `--help`.
        var help: String

        var key: String { names.first { $0.hasPrefix("--") } ?? names[0] }
    }

    /// The result: option values by key (`--output`), flags set, positionals in order.
    struct Arguments {
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []

        func value(_ key: String) -> String? { values[key]?.last }
        func all(_ key: String) -> [String] { values[key] ?? [] }
        func has(_ key: String) -> Bool { flags.contains(key) }

        /// The value of an option that takes one of a fixed set of words (`--format`,
        /// `--engine`), as the type that names them; `fallback` when the option is absent.
        ///
        /// - Throws: ``CommandFailure`` (usage, 64) naming the words in their order, e.g.
        ///   `--format must be text, json or junit, not 'yaml'`.
        func choice<Choice: RawRepresentable & CaseIterable>(
            _ key: String, default fallback: Choice
        ) throws(CommandFailure) -> Choice where Choice.RawValue == String {
            guard let text = value(key) else { return fallback }
            guard let chosen = Choice(rawValue: text) else {
                throw .usage("\(key) must be \(ArgumentScanner.words(Choice.allCases.map(\.rawValue))), not '\(text)'")
            }
            return chosen
        }
    }

    /// The `--format` of commands that print text or JSON (`compose --lint`, `stages`, `verify`).
    enum TextOrJSON: String, CaseIterable {
        case text, json
    }

    /// `a`, `a or b`, `a, b or c`: a choice's words for messages and help.
    static func words(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    var options: [Option]

    func scan(_ arguments: [String]) throws(CommandFailure) -> Arguments {
        var result = Arguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let known = options.flatMap(\.names).filter { $0.hasPrefix("--") }
                let suggestion =
                    NameSuggestions.closest(to: name, in: known, limit: 1).first.map { "; did you mean '\($0)'?" } ?? ""
                throw CommandFailure.usage("unknown option '\(name)'\(suggestion)")
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw CommandFailure.usage("option '\(name)' needs a value (\(option.valueName))")
                    }
                    value = arguments[index]
                    index += 1
                }
                result.values[option.key, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw CommandFailure.usage("option '\(name)' takes no value") }
                result.flags.insert(option.key)
            }
        }
        return result
    }
}
