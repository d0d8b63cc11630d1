/// BuildKit's shell-word lexer (`frontend/dockerfile/shell/lex.go`) without variable values:
/// quotes and escapes are processed, and every variable reference (`$V`, `${V}`,
/// `${V:-default}`, …) is kept as written, as BuildKit does for unset variables when it is
/// told to skip them. stagebuild never evaluates a build, so no value is ever substituted.
public struct ShellWordLexer: Sendable {
    /// The escape character inside words.
    public var escape: Unicode.Scalar
    /// Keep quote characters in the result (BuildKit's `RawQuotes`).
    public var keepsQuotes = false
    /// Keep escape characters in the result (BuildKit's `RawEscapes`).
    public var keepsEscapes = false
    /// Values to put in place of `$NAME` and `${NAME}` for these names (a base template's
    /// `FROM` read with its parameters' values); other references stay as written. A reference
    /// with a modifier (`${NAME:-x}`) to one of these names is a fault.
    public var values: [String: String] = [:]

    /// A word the lexer cannot read: an unbalanced quote or a malformed `${…}`.
    public struct Fault: Error, Sendable, Hashable {
        /// BuildKit's wording of the fault.
        public var message: String
        /// The 0-based offset, in Unicode scalars, where reading stopped.
        public var offset: Int
    }

    /// Creates a lexer.
    ///
    /// - Parameters:
    ///   - escape: The escape character, `\` unless a file chose `` ` ``.
    ///   - keepsQuotes: Keep quote characters in the output.
    ///   - keepsEscapes: Keep escape characters in the output.
    public init(escape: Unicode.Scalar = "\\", keepsQuotes: Bool = false, keepsEscapes: Bool = false) {
        self.escape = escape
        self.keepsQuotes = keepsQuotes
        self.keepsEscapes = keepsEscapes
    }

    /// Processes text as one word: quotes and escapes removed, spaces kept.
    ///
    /// - Parameter text: The text, e.g. `"a b"\$c`.
    /// - Returns: The word, e.g. `a b$c`.
    /// - Throws: `Fault` for an unbalanced quote or malformed reference.
    public func word(_ text: String) throws(Fault) -> String {
        var scanner = Scanner(lexer: self, scalars: text.scalars)
        return try scanner.process(stopAt: nil, keepsEscapes: keepsEscapes).result
    }

    /// Processes text and splits it into words at unquoted white space.
    ///
    /// - Parameter text: The text, e.g. `a "b c"`.
    /// - Returns: The words, e.g. `["a", "b c"]`.
    /// - Throws: `Fault` for an unbalanced quote or malformed reference.
    public func words(_ text: String) throws(Fault) -> [String] {
        var scanner = Scanner(lexer: self, scalars: text.scalars)
        return try scanner.process(stopAt: nil, keepsEscapes: keepsEscapes).words
    }

    private struct Scanner {
        let lexer: ShellWordLexer
        let scalars: [Unicode.Scalar]
        var index = 0

        init(lexer: ShellWordLexer, scalars: [Unicode.Scalar]) {
            self.lexer = lexer
            self.scalars = scalars
        }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func next() -> Unicode.Scalar? {
            guard index < scalars.count else { return nil }
            defer { index += 1 }
            return scalars[index]
        }

        func fault(_ message: String) -> Fault { Fault(message: message, offset: index) }

        mutating func process(stopAt stop: Unicode.Scalar?, keepsEscapes: Bool) throws(Fault) -> (result: String, words: [String])
        {
            var result = String.UnicodeScalarView()
            var words = WordCollector()
            while let scalar = peek {
                if let stop, scalar == stop {
                    index += 1
                    return (String(result), words.finish())
                }
                switch scalar {
                case "$":
                    let text = try dollar()
                    result.append(contentsOf: text.unicodeScalars)
                    words.add(text)
                case "'":
                    let text = try singleQuoted()
                    result.append(contentsOf: text.unicodeScalars)
                    words.addRaw(text)
                case "\"":
                    let text = try doubleQuoted(keepsEscapes: keepsEscapes)
                    result.append(contentsOf: text.unicodeScalars)
                    words.addRaw(text)
                default:
                    index += 1
                    var character = scalar
                    if scalar == lexer.escape {
                        if keepsEscapes {
                            words.addRaw(scalar)
                            result.append(scalar)
                        }
                        guard let escaped = next() else { break }
                        character = escaped
                        words.addRaw(character)
                    } else {
                        words.add(character)
                    }
                    result.append(character)
                }
            }
            if let stop {
                throw fault("unexpected end of statement while looking for matching \(stop)")
            }
            return (String(result), words.finish())
        }

        mutating func singleQuoted() throws(Fault) -> String {
            var result = String.UnicodeScalarView()
            index += 1
            if lexer.keepsQuotes { result.append("'") }
            while true {
                guard let scalar = next() else {
                    throw fault("unexpected end of statement while looking for matching single-quote")
                }
                if scalar == "'" {
                    if lexer.keepsQuotes { result.append(scalar) }
                    return String(result)
                }
                result.append(scalar)
            }
        }

        mutating func doubleQuoted(keepsEscapes: Bool) throws(Fault) -> String {
            var result = String.UnicodeScalarView()
            index += 1
            if lexer.keepsQuotes { result.append("\"") }
            while true {
                guard let scalar = peek else {
                    throw fault("unexpected end of statement while looking for matching double-quote")
                }
                switch scalar {
                case "\"":
                    index += 1
                    if lexer.keepsQuotes { result.append(scalar) }
                    return String(result)
                case "$":
                    result.append(contentsOf: try dollar().unicodeScalars)
                default:
                    index += 1
                    var character = scalar
                    if scalar == lexer.escape {
                        if keepsEscapes { result.append(scalar) }
                        guard let following = peek else { continue }
                        if following == "\"" || following == "$" || following == lexer.escape {
                            index += 1
                            character = following
                        }
                    }
                    result.append(character)
                }
            }
        }

        /// A variable reference, returned as written (after processing quotes in a modifier's word).
        mutating func dollar() throws(Fault) -> String {
            index += 1
            guard peek == "{" else {
                let name = self.name()
                return lexer.values[name] ?? "$" + name
            }
            index += 1
            switch peek {
            case nil: throw fault("syntax error: missing '}'")
            case "{", "}", ":": throw fault("syntax error: bad substitution")
            default: break
            }
            let name = self.name()
            guard let modifier = next() else { throw fault("syntax error: missing '}'") }
            if modifier != "}" && lexer.values[name] != nil {
                throw fault("${\(name)} is expanded here without modifiers: write ${\(name)} or $\(name)")
            }
            switch modifier {
            case "}":
                return lexer.values[name] ?? "${\(name)}"
            case ":", "+", "-", "?", "#", "%":
                var written = String(modifier)
                var kind = modifier
                if modifier == ":" {
                    guard let second = next() else { throw fault("syntax error: missing '}'") }
                    written.unicodeScalars.append(second)
                    kind = second
                }
                let word = try modifierWord(stop: "}", keepsEscapes: kind == "#" || kind == "%")
                return "${\(name)\(written)\(word)}"
            case "/":
                var written = "/"
                if peek == "/" {
                    index += 1
                    written = "//"
                }
                let pattern = try modifierWord(stop: "/", keepsEscapes: true)
                let replacement = try modifierWord(stop: "}", keepsEscapes: true)
                return "${\(name)\(written)\(pattern)/\(replacement)}"
            default:
                throw fault("unsupported modifier (\(modifier)) in substitution")
            }
        }

        mutating func modifierWord(stop: Unicode.Scalar, keepsEscapes: Bool) throws(Fault) -> String {
            do {
                return try process(stopAt: stop, keepsEscapes: keepsEscapes).result
            } catch {
                throw peek == nil ? fault(stop == "}" ? "syntax error: missing '}'" : "syntax error: missing '/' in ${}") : error
            }
        }

        /// A variable name: letters, digits and `_`; all digits; or one special parameter.
        mutating func name() -> String {
            var name = String.UnicodeScalarView()
            while let scalar = peek {
                if name.isEmpty && scalar.properties.numericType == .decimal {
                    while let digit = peek, digit.properties.numericType == .decimal {
                        name.append(digit)
                        index += 1
                    }
                    return String(name)
                }
                if name.isEmpty && "@*#?-$!0".unicodeScalars.contains(scalar) {
                    index += 1
                    return String(scalar)
                }
                guard scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || scalar == "_" else {
                    break
                }
                name.append(scalar)
                index += 1
            }
            return String(name)
        }
    }

    /// Splits processed text into words: unquoted white space separates words, quoted text
    /// never does (BuildKit's `wordsStruct`).
    private struct WordCollector {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false

        mutating func add(_ scalar: Unicode.Scalar) {
            if scalar.isGoSpace {
                if inWord && !word.isEmpty {
                    words.append(String(word))
                    word = String.UnicodeScalarView()
                    inWord = false
                }
            } else {
                addRaw(scalar)
            }
        }

        mutating func add(_ text: String) {
            for scalar in text.unicodeScalars { add(scalar) }
        }

        mutating func addRaw(_ scalar: Unicode.Scalar) {
            word.append(scalar)
            inWord = true
        }

        mutating func addRaw(_ text: String) {
            word.append(contentsOf: text.unicodeScalars)
            inWord = true
        }

        mutating func finish() -> [String] {
            if !word.isEmpty { words.append(String(word)) }
            return words
        }
    }
}

extension EscapeCharacter {
    /// A word as the builder reads its value where no variable is known yet: quotes and escapes
    /// removed, references left as written (BuildKit's `ProcessWord` over an empty environment,
    /// e.g. an `ARG` default or an `ENV` value); the word itself when it does not lex. The one
    /// reading of a word's value that compose, lock and lint share.
    ///
    /// - Parameter word: The word as written.
    public func unquoted(_ word: String) -> String {
        (try? ShellWordLexer(escape: scalar).word(word)) ?? word
    }

    /// A word with the values of the variables it reads in place, as the builder expands it
    /// (BuildKit's `ProcessWord`); a reference to a variable not in `values` stays as written.
    ///
    /// - Parameters:
    ///   - word: The word as written.
    ///   - values: Each known variable's value.
    ///   - keepingQuotes: Keep quotes and escapes (a word that is read again later, as a flag's
    ///     value is), replacing only the references.
    /// - Returns: The expanded word, or `nil` when it does not lex.
    public func expanded(_ word: String, values: [String: String], keepingQuotes: Bool = false) -> String? {
        var lexer = ShellWordLexer(escape: scalar, keepsQuotes: keepingQuotes, keepsEscapes: keepingQuotes)
        lexer.values = values
        return try? lexer.word(word)
    }
}
