/// The Stagefile's two forms that name stage templates, recognised here once for compose,
/// lint, lock and `stages`: `FROM stage:NAME [AS alias] [KEY=VALUE ...]` starts a build stage
/// from a base template, `USE NAME [KEY=VALUE ...]` adds a layer template.
extension Instruction {
    /// The prefix that marks a base-template reference in `FROM`, read in any case: an image
    /// reference's repository is lower case, so `STAGE:debian` can only mean a template.
    public static let templatePrefix = "stage:"

    /// True for `FROM stage:NAME …` (any case of `stage:`).
    public var isBaseTemplateReference: Bool {
        guard knownKeyword == .from, let first = arguments.first else { return false }
        return first.count >= Self.templatePrefix.count
            && first.prefix(Self.templatePrefix.count).lowercased() == Self.templatePrefix
    }

    /// True for `USE NAME …`.
    public var isLayerTemplateReference: Bool { knownKeyword == .use }

    /// True for either form: the instruction names a stage template, not an image or a step.
    public var isTemplateReference: Bool { isBaseTemplateReference || isLayerTemplateReference }
}

extension Instruction {
    /// The words of a template reference after its keyword, split at white space outside
    /// quotes as `ARG`'s are (quotes kept) so that a binding `KEY="a b"` stays one word: the
    /// name (`stage:NAME` for `FROM`), then `AS alias` for `FROM`, then the bindings. `nil`
    /// for an instruction that is no template reference.
    public var templateReferenceWords: [InstructionWord]? {
        guard isTemplateReference else { return nil }
        let line = logicalLine.scalars
        return WordSplitter.words(in: line[min(argumentsOffset, line.count)...], escape: escapeCharacter)
    }
}

/// A template reference read into its parts: the template's name, `AS alias` for `FROM`, and the
/// bindings with their values as the builder reads a word (quotes and escapes removed,
/// references as written: BuildKit's `ProcessWord`) and where each is written.
public struct TemplateReference: Sendable, Hashable {
    /// One `KEY=VALUE` binding.
    public struct Binding: Sendable, Hashable {
        /// The whole binding as written.
        public var word: InstructionWord
        /// The name before `=`.
        public var key: String
        /// The value after `=`, quotes and escapes removed.
        public var value: String
        /// The value as written, quotes and escapes kept.
        public var writtenValue: String
        /// Where the value starts in ``Instruction/logicalLine``, in Unicode scalars.
        public var valueOffset: Int
    }

    /// The first word: `stage:NAME` for `FROM`, `NAME` for `USE`.
    public var nameWord: InstructionWord
    /// The template's name (without `stage:`).
    public var name: String
    /// The alias of `FROM stage:NAME AS alias`.
    public var alias: InstructionWord?
    /// The bindings, in order.
    public var bindings: [Binding]
}

/// Why a template reference cannot be read, with where.
public enum TemplateReferenceFault: Error, Sendable, Hashable {
    /// `USE` with no template name.
    case noName
    /// `AS` without an alias after it (or with a binding there); the `AS` word.
    case noAlias(InstructionWord)
    /// A word that is no `KEY=VALUE`, and where it starts in the logical line.
    case notABinding(InstructionWord, offset: Int)
    /// A value that does not read as a word (an unterminated quote, say): the key, BuildKit's
    /// words, and the offset in the logical line where the fault is.
    case badValue(key: String, message: String, offset: Int)
}

extension Instruction {
    /// The template reference this instruction is, read into its parts; `nil` for an
    /// instruction that is no template reference.
    ///
    /// - Throws: ``TemplateReferenceFault`` for a reference that cannot be read.
    public func templateReference() throws(TemplateReferenceFault) -> TemplateReference? {
        guard var words = templateReferenceWords else { return nil }
        guard let first = words.first else { throw .noName }
        words.removeFirst()
        var reference = TemplateReference(
            nameWord: first, name: isBaseTemplateReference ? String(first.text.dropFirst(Self.templatePrefix.count)) : first.text,
            alias: nil, bindings: [])
        if isBaseTemplateReference, let word = words.first, word.text.uppercased() == "AS" {
            guard words.count >= 2, !words[1].text.contains("=") else { throw .noAlias(word) }
            reference.alias = words[1]
            words.removeFirst(2)
        }
        let lexer = ShellWordLexer(escape: escapeCharacter)
        for written in words {
            let word = written.text
            let start = written.range?.lowerBound ?? argumentsOffset
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw .notABinding(written, offset: start)
            }
            let key = String(word[..<equals])
            let writtenValue = String(word[word.index(after: equals)...])
            let valueStart = start + key.unicodeScalars.count + 1
            do {
                reference.bindings.append(
                    TemplateReference.Binding(
                        word: written, key: key, value: try lexer.word(writtenValue), writtenValue: writtenValue,
                        valueOffset: valueStart))
            } catch {
                let offset =
                    Self.unterminatedQuoteOffset(in: Array(writtenValue.unicodeScalars), escape: escapeCharacter) ?? error.offset
                throw .badValue(key: key, message: error.message, offset: valueStart + offset)
            }
        }
        return reference
    }

    /// Where the quote that is never closed opens in a word, so an error points at it rather
    /// than at the end of the line; `nil` when every quote is closed.
    private static func unterminatedQuoteOffset(in word: [Unicode.Scalar], escape: Unicode.Scalar) -> Int? {
        var open: (quote: Unicode.Scalar, offset: Int)?
        var index = 0
        while index < word.count {
            let scalar = word[index]
            if let current = open {
                if scalar == current.quote {
                    open = nil
                } else if scalar == escape && current.quote == "\"" {
                    index += 1
                }
            } else if scalar == "'" || scalar == "\"" {
                open = (scalar, index)
            } else if scalar == escape {
                index += 1
            }
            index += 1
        }
        return open?.offset
    }
}
