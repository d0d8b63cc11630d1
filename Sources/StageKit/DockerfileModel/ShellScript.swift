import DockerfileSyntax

/// A shell script split into simple commands the way POSIX `sh` splits it, enough for lint
/// rules to see which programs run with which arguments: words with quotes and escapes
/// removed, `&&`, `||`, `;`, `|`, `&` and new lines between commands, `\` line continuations,
/// comments, redirections (a redirection's target is not an argument) and the bodies of the
/// script's own here-documents (data, not commands) skipped. Command substitutions (`$(…)`
/// and backquotes) stay inside their word as written, and their own commands are read into the
/// command's `substitutions`; `sh -c SCRIPT` is read into the commands of SCRIPT as well.
///
/// Variables are never expanded: `$NAME` stays in the word as written.
struct ShellScript: Sendable {
    /// One word of a command.
    struct Word: Sendable, Hashable {
        /// The word with quotes and escapes removed, variable references as written.
        var text: String
        /// True when any part of the word was quoted or escaped.
        var isQuoted: Bool
        /// Where the word starts in the Dockerfile.
        var location: SourceLocation
    }

    /// What follows a command.
    enum Separator: Sendable, Hashable {
        /// `|` or `|&`: the next command reads this one's output.
        case pipe
        /// `&&`.
        case and
        /// `||`.
        case or
        /// `;`, `&`, a new line, or a parenthesis.
        case sequence
        /// The end of the script.
        case end
    }

    /// One simple command.
    struct Command: Sendable, Hashable {
        /// Its words, leading assignments and wrappers included.
        let words: [Word]
        /// The delimiters of the here-documents it reads, e.g. `EOF` for `cat <<'EOF'`.
        var heredocDelimiters: [String]
        /// The files its output redirections write, e.g. `/etc/apt/sources.list.d/x.list` for
        /// `> /etc/apt/sources.list.d/x.list` (quotes removed).
        var outputTargets: [String] = []
        /// The commands of the command substitutions in its words (`$(…)`, backquotes and the
        /// process substitutions `<(…)` and `>(…)`, not `$((…))` arithmetic), in the order they
        /// are written; each holds its own nested ones.
        /// The shell runs them before the command itself.
        var substitutions: [Command] = []
        /// What follows it.
        var separator: Separator
        /// Where `invocation` starts in `words`, found once: rules ask for the program of
        /// every command many times.
        private let invocationStart: Int

        /// Creates a command.
        ///
        /// - Parameters:
        ///   - words: Its words.
        ///   - heredocDelimiters: The delimiters of the here-documents it reads.
        ///   - separator: What follows it.
        init(words: [Word], heredocDelimiters: [String], separator: Separator) {
            self.words = words
            self.heredocDelimiters = heredocDelimiters
            self.separator = separator
            let start = Self.invocationStart(of: words)
            invocationStart = start
            program = words.indices.contains(start) ? Self.fileName(words[start].text) : nil
        }

        /// A path's last component: `apt-get` for `/usr/bin/apt-get`; the text itself
        /// without a `/` or when it ends in one.
        private static func fileName(_ path: String) -> String {
            guard let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else {
                return path.split(separator: "/").last.map(String.init) ?? path
            }
            return String(path[path.index(after: slash)...])
        }

        /// The words from the program on: leading `NAME=value` assignments, shell keywords
        /// (`if`, `then`, `do`, `!`, `{`, …) and wrappers (`sudo`, `env`, `exec`, `command`,
        /// `nice`, `nohup`, `time`) with their options skipped.
        var invocation: ArraySlice<Word> { words[invocationStart...] }

        private static func invocationStart(of words: [Word]) -> Int {
            var index = 0
            func skipOptions(valued: Set<String>) {
                while index < words.count, words[index].text.hasPrefix("-"), words[index].text != "-" {
                    index += valued.contains(words[index].text) ? 2 : 1
                }
            }
            while index < words.count {
                let text = words[index].text
                if Self.isAssignment(text) || Self.keywords.contains(text) {
                    index += 1
                } else if text == "sudo" || text == "doas" {
                    index += 1
                    skipOptions(valued: ["-u", "-g", "-C", "-p", "-U", "-h", "-r", "-t", "-T", "-D"])
                } else if text == "env" {
                    index += 1
                    while index < words.count, words[index].text.hasPrefix("-") || Self.isAssignment(words[index].text) {
                        index += ["-u", "--unset", "-C", "--chdir"].contains(words[index].text) ? 2 : 1
                    }
                } else if text == "nice" {
                    index += 1
                    skipOptions(valued: ["-n"])
                } else {
                    break
                }
            }
            return min(index, words.count)
        }

        /// The program's file name without its folder, e.g. `apt-get` for `/usr/bin/apt-get`.
        let program: String?

        /// The words after the program.
        var arguments: ArraySlice<Word> { invocation.dropFirst() }

        /// The commands of its substitutions (theirs first, in turn), then the command itself:
        /// the order the shell runs them in.
        var inRunOrder: [Command] { substitutions.flatMap(\.inRunOrder) + [self] }

        /// True when the command runs a POSIX-like shell (`sh`, `bash`, `dash`, …).
        var runsShell: Bool { program.map { ShellScript.shells.contains($0) } ?? false }

        /// For a shell run as `sh -c SCRIPT`, the word holding SCRIPT.
        var shellCommandWord: Word? {
            guard runsShell else { return nil }
            let arguments = Array(self.arguments)
            guard let flag = arguments.firstIndex(where: { Self.isShellCommandFlag($0.text) }),
                flag + 1 < arguments.count
            else { return nil }
            return arguments[flag + 1]
        }

        private static let keywords: Set<String> = [
            "if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time", "exec", "command",
            "builtin", "nohup",
        ]

        /// `NAME=value` or `NAME+=value` with a shell variable name.
        static func isAssignment(_ text: String) -> Bool {
            guard let equals = text.firstIndex(of: "=") else { return false }
            var name = text[..<equals]
            if name.hasSuffix("+") { name = name.dropLast() }
            guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else {
                return false
            }
            return name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
            }
        }

        /// `-c`, or a cluster of short options holding `c` such as `-ec` or `-euxc`.
        static func isShellCommandFlag(_ text: String) -> Bool {
            text.hasPrefix("-") && !text.hasPrefix("--") && text.contains("c")
        }
    }

    /// The programs read as shells.
    static let shells: Set<String> = ["sh", "bash", "dash", "ash", "zsh", "ksh", "mksh", "busybox"]

    /// Whether shell options set `pipefail`: `-o pipefail`, `-opipefail`, or a cluster such as
    /// `-euo pipefail` (bash(1), "set").
    ///
    /// - Parameter arguments: The words after `set` or after a shell's name.
    static func setsPipefail(_ arguments: [String]) -> Bool {
        if arguments.contains(where: { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.hasSuffix("opipefail") }) { return true }
        return zip(arguments, arguments.dropFirst()).contains { option, value in
            value == "pipefail" && option.hasPrefix("-") && !option.hasPrefix("--") && option.contains("o")
        }
    }

    /// The commands in order, those of `sh -c SCRIPT` right after the shell command.
    private(set) var commands: [Command]

    /// Reads a script.
    ///
    /// - Parameters:
    ///   - source: The script text.
    ///   - locate: The position in the Dockerfile of a 0-based offset, in Unicode scalars, into `source`.
    init(_ source: String, locate: (Int) -> SourceLocation) {
        var reader = Reader(scalars: Array(source.unicodeScalars))
        reader.run()
        commands = Self.commands(of: reader.commands, locate: locate, depth: 0)
    }

    private static func commands(of raw: [Reader.RawCommand], locate: (Int) -> SourceLocation, depth: Int) -> [Command] {
        var commands: [Command] = []
        for command in raw {
            let words = command.words.map { Word(text: $0.text, isQuoted: $0.isQuoted, location: locate($0.offset)) }
            var made = Command(words: words, heredocDelimiters: command.heredocs, separator: command.separator)
            made.outputTargets = command.outputTargets
            if depth < 3 {
                for substitution in command.words.flatMap(\.substitutions) {
                    var reader = Reader(scalars: Array(substitution.text.unicodeScalars))
                    reader.run()
                    made.substitutions += Self.commands(
                        of: reader.commands, locate: { locate(substitution.offset + $0) }, depth: depth + 1)
                }
            }
            commands.append(made)
            if depth < 3, let script = made.shellCommandWord {
                var reader = Reader(scalars: Array(script.text.unicodeScalars))
                reader.run()
                commands += Self.commands(of: reader.commands, locate: { _ in script.location }, depth: depth + 1)
            }
        }
        return commands
    }

    /// The interpreter a script's `#!` line names, without its folder (`bash` for
    /// `#!/usr/bin/env bash`); `nil` when the script has no `#!` line.
    ///
    /// - Parameter script: The script text.
    static func interpreter(of script: String) -> String? {
        guard script.hasPrefix("#!") else { return nil }
        let line = script.dropFirst(2).prefix { $0 != "\n" && $0 != "\r" }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return "" }
        var program = first.split(separator: "/").last.map(String.init) ?? String(first)
        if program == "env" {
            program = words.dropFirst().first { !$0.hasPrefix("-") }.map(String.init) ?? ""
        }
        return program
    }
}

/// The scanner behind `ShellScript`: words with their offsets, grouped into commands.
private struct Reader {
    struct RawWord {
        var text: String
        var isQuoted: Bool
        var offset: Int
        /// The command substitutions inside the word: each one's text and where it starts.
        var substitutions: [(offset: Int, text: String)] = []
    }

    struct RawCommand {
        var words: [RawWord]
        var heredocs: [String]
        var outputTargets: [String] = []
        var separator: ShellScript.Separator
    }

    let scalars: [Unicode.Scalar]
    var index = 0
    var commands: [RawCommand] = []
    var words: [RawWord] = []
    var heredocs: [String] = []
    var outputTargets: [String] = []
    var pendingBodies: [(delimiter: String, stripsTabs: Bool)] = []
    /// The command substitutions of the word being read.
    var substitutions: [(offset: Int, text: String)] = []
    /// One entry per `case … in` being read, innermost last: `true` while its patterns are read
    /// (where `|` separates alternatives and `)` ends the list), `false` in an item's commands.
    var cases: [Bool] = []

    /// Whether the reader is inside `[[ … ]]`, where `(`, `)` and a single `|` belong to the
    /// words (`=~ ^(amd64|arm64)$`, `== @(a|b)`), as bash reads a conditional expression.
    var inConditional = false

    /// Whether the reader is in the pattern list of a `case` item.
    var readsPatterns: Bool { cases.last == true }

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    func at(_ position: Int) -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    mutating func run() {
        while let scalar = at(index) {
            if readsPatterns && readPatternDelimiter(scalar) { continue }
            switch scalar {
            case " ", "\t", "\r":
                index += 1
            case "\n":
                index += 1
                end(.sequence)
                skipHeredocBodies()
            case "#":
                while let next = at(index), next != "\n" { index += 1 }
            case ";":
                // `;;`, `;&` and `;;&` end a case item: the next words are its patterns.
                let endsItem = at(index + 1) == ";" || at(index + 1) == "&"
                index += endsItem ? (at(index + 2) == "&" ? 3 : 2) : 1
                end(.sequence)
                if endsItem && !cases.isEmpty { cases[cases.count - 1] = true }
            case "&":
                if at(index + 1) == "&" {
                    index += 2
                    end(.and)
                } else if at(index + 1) == ">" {
                    redirect()
                } else {
                    index += 1
                    end(.sequence)
                }
            case "|":
                if at(index + 1) == "|" {
                    index += 2
                    end(.or)
                } else {
                    index += at(index + 1) == "&" ? 2 : 1
                    end(.pipe)
                }
            case "(", ")":
                index += 1
                end(.sequence)
            case "<", ">":
                if at(index + 1) == "(" { words.append(word()) } else { redirect() }
            case "\\" where at(index + 1) == "\n":
                index += 2
            default:
                let word = word()
                let isDescriptor =
                    !word.isQuoted && !word.text.isEmpty && word.text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
                if isDescriptor, let next = at(index), next == "<" || next == ">" {
                    redirect()
                } else if words.isEmpty && !word.isQuoted && word.text == "esac" && !cases.isEmpty {
                    cases.removeLast()
                } else if !readsPatterns {
                    if !word.isQuoted && word.text == "]]" { inConditional = false }
                    if !word.isQuoted && word.text == "[[" { inConditional = true }
                    words.append(word)
                    if startsCase {
                        end(.sequence)
                        cases.append(true)
                    }
                }
            }
        }
        end(.end)
    }

    /// Whether the words read so far are `case WORD in`, after keywords such as `then` or `do`.
    var startsCase: Bool {
        let count = words.count
        guard count >= 3, words[count - 3].text == "case", words[count - 1].text == "in", !words[count - 1].isQuoted
        else { return false }
        return words[..<(count - 3)].allSatisfy { ["then", "do", "else", "{", "!"].contains($0.text) }
    }

    /// Reads `|`, `(` and `)` in a case item's pattern list, which are no operators there
    /// (POSIX, "Case Conditional Construct"): the patterns are no command. Returns whether the
    /// scalar was read.
    mutating func readPatternDelimiter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "|", "(":
            index += 1
        case ")":
            index += 1
            words = []
            cases[cases.count - 1] = false
        default:
            return false
        }
        return true
    }

    mutating func end(_ separator: ShellScript.Separator) {
        if !words.isEmpty || !heredocs.isEmpty {
            commands.append(RawCommand(words: words, heredocs: heredocs, outputTargets: outputTargets, separator: separator))
        }
        words = []
        heredocs = []
        outputTargets = []
        // `[[ a && b ]]` goes on past `&&` and `||`; nothing else ends inside it.
        if separator != .and && separator != .or { inConditional = false }
    }

    /// Reads one word up to unquoted white space or an operator.
    mutating func word() -> RawWord {
        let start = index
        var text = String.UnicodeScalarView()
        var isQuoted = false
        substitutions = []
        loop: while let scalar = at(index) {
            if inConditional && (scalar == "(" || scalar == ")" || (scalar == "|" && at(index + 1) != "|")) {
                text.append(scalar)
                index += 1
                continue
            }
            if "@!+*?".unicodeScalars.contains(scalar) && at(index + 1) == "(" {
                // An extended glob (`!(keep|this)`): its `|` separates patterns.
                text.append(scalar)
                index += 1
                group(into: &text, open: "(", close: ")")
                continue
            }
            switch scalar {
            case " ", "\t", "\n", "\r", ";", "&", "|", "(", ")":
                break loop
            case "<", ">":
                // Process substitution: its commands run as a command substitution's do.
                guard at(index + 1) == "(" else { break loop }
                text.append(scalar)
                index += 1
                commandSubstitution(into: &text)
            case "\\":
                if at(index + 1) == "\n" {
                    index += 2
                } else if let next = at(index + 1) {
                    text.append(next)
                    isQuoted = true
                    index += 2
                } else {
                    index += 1
                }
            case "'":
                isQuoted = true
                index += 1
                while let next = at(index), next != "'" {
                    text.append(next)
                    index += 1
                }
                index += 1
            case "\"":
                isQuoted = true
                index += 1
                doubleQuoted(into: &text)
            case "$":
                text.append(scalar)
                index += 1
                if at(index) == "(" {
                    commandSubstitution(into: &text)
                } else if at(index) == "{" {
                    group(into: &text, open: "{", close: "}")
                }
            case "`":
                backquoted(into: &text)
            default:
                text.append(scalar)
                index += 1
            }
        }
        return RawWord(text: String(text), isQuoted: isQuoted, offset: start, substitutions: substitutions)
    }

    /// Copies `(…)` after a `$` as written, and keeps its inside as a command substitution
    /// unless it is `$((…))` arithmetic.
    mutating func commandSubstitution(into text: inout String.UnicodeScalarView) {
        let open = index
        group(into: &text, open: "(", close: ")")
        guard at(open + 1) != "(" else { return }
        let end = scalars[index - 1] == ")" ? index - 1 : index
        substitutions.append((open + 1, String(String.UnicodeScalarView(scalars[(open + 1)..<max(open + 1, end)]))))
    }

    mutating func doubleQuoted(into text: inout String.UnicodeScalarView) {
        while let scalar = at(index), scalar != "\"" {
            if scalar == "\\", let next = at(index + 1), "$`\"\\\n".unicodeScalars.contains(next) {
                if next != "\n" { text.append(next) }
                index += 2
            } else if scalar == "$", at(index + 1) == "(" {
                text.append(scalar)
                index += 1
                commandSubstitution(into: &text)
            } else if scalar == "$", at(index + 1) == "{" {
                text.append(scalar)
                index += 1
                group(into: &text, open: "{", close: "}")
            } else if scalar == "`" {
                backquoted(into: &text, inDoubleQuotes: true)
            } else {
                text.append(scalar)
                index += 1
            }
        }
        index += 1
    }

    /// Copies a balanced group such as `(…)` as written, quotes inside it respected.
    mutating func group(into text: inout String.UnicodeScalarView, open: Unicode.Scalar, close: Unicode.Scalar) {
        var depth = 0
        while let scalar = at(index) {
            text.append(scalar)
            index += 1
            switch scalar {
            case open:
                depth += 1
            case close:
                depth -= 1
                if depth == 0 { return }
            case "\\":
                if let next = at(index) {
                    text.append(next)
                    index += 1
                }
            case "'", "\"":
                while let next = at(index) {
                    text.append(next)
                    index += 1
                    if next == scalar { break }
                    if next == "\\", scalar == "\"", let escaped = at(index) {
                        text.append(escaped)
                        index += 1
                    }
                }
            default:
                break
            }
        }
    }

    /// Copies a backquoted command substitution as written and keeps its inside, where a
    /// backslash before `` ` ``, `$` or `\\` (and `"` inside double quotes) stands for that
    /// character alone (POSIX, "Command Substitution").
    mutating func backquoted(into text: inout String.UnicodeScalarView, inDoubleQuotes: Bool = false) {
        text.append("`")
        index += 1
        let start = index
        var inside = String.UnicodeScalarView()
        while let scalar = at(index) {
            text.append(scalar)
            index += 1
            if scalar == "`" { break }
            if scalar == "\\", let next = at(index) {
                text.append(next)
                index += 1
                if !"`$\\".unicodeScalars.contains(next) && !(inDoubleQuotes && next == "\"") { inside.append(scalar) }
                inside.append(next)
            } else {
                inside.append(scalar)
            }
        }
        substitutions.append((start, String(inside)))
    }

    /// Reads a redirection operator and its target, which is not an argument of the command.
    mutating func redirect() {
        var operation = String.UnicodeScalarView()
        if at(index) == "&" {
            operation.append("&")
            index += 1
        }
        guard let first = at(index) else { return }
        operation.append(first)
        index += 1
        let followers: Set<Unicode.Scalar> = first == "<" ? ["<", ">", "&"] : [">", "|", "&"]
        if let next = at(index), followers.contains(next) {
            operation.append(next)
            index += 1
            if String(operation) == "<<", let third = at(index), third == "<" || third == "-" {
                operation.append(third)
                index += 1
            }
        }
        while let next = at(index), next == " " || next == "\t" { index += 1 }
        guard let next = at(index), !"\n;|&()<>".unicodeScalars.contains(next) else { return }
        let target = word()
        let kind = String(operation)
        if kind == "<<" || kind == "<<-" {
            pendingBodies.append((target.text, kind == "<<-"))
            heredocs.append(target.text)
        } else if kind.hasSuffix(">") || kind.hasSuffix(">>") || kind == ">|" {
            outputTargets.append(target.text)
        }
    }

    /// Skips the bodies of the here-documents opened on the line that just ended.
    mutating func skipHeredocBodies() {
        for body in pendingBodies {
            while index < scalars.count {
                var end = index
                while end < scalars.count, scalars[end] != "\n" { end += 1 }
                var line = scalars[index..<end]
                if line.last == "\r" { line = line.dropLast() }
                if body.stripsTabs { line = line.drop(while: { $0 == "\t" }) }
                index = min(end + 1, scalars.count)
                if String(String.UnicodeScalarView(line)) == body.delimiter { break }
            }
        }
        pendingBodies = []
    }
}
