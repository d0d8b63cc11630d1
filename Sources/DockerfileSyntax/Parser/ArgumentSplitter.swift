/// Splits an instruction's arguments per keyword, as BuildKit's dispatch table of line
/// parsers does (`frontend/dockerfile/parser/line_parsers.go`).
enum ArgumentSplitter {
    /// The split arguments, each with where it is written (the indices of the text split;
    /// `nil` when the argument is not written as it stands), and whether they came from a
    /// JSON array.
    struct Split {
        var arguments: [InstructionWord]
        var isJSONForm = false
    }

    /// A fault BuildKit reports for the arguments of one instruction.
    struct Fault: Error {
        var message: String
    }

    /// - Parameters:
    ///   - keyword: The instruction's keyword; `nil` for an unknown one.
    ///   - text: The arguments after flags, trimmed, with their indices in the logical line.
    ///   - escape: The escape character.
    /// - Returns: The arguments.
    /// - Throws: `Fault` for the inputs BuildKit rejects.
    static func split(keyword: Keyword?, text: ArraySlice<Unicode.Scalar>, escape: Unicode.Scalar) throws(Fault) -> Split {
        switch keyword {
        case .add, .copy, .volume:
            return try maybeJSONList(text)
        case .arg:
            return Split(arguments: WordSplitter.words(in: text, escape: escape))
        case .cmd, .entrypoint, .run, .shell:
            return try maybeJSON(text)
        case .env:
            return try nameValuePairs(text, keyword: "ENV", escape: escape)
        case .label:
            return try nameValuePairs(text, keyword: "LABEL", escape: escape)
        case .expose, .from:
            return Split(arguments: whitespaceDelimited(text))
        case .healthcheck:
            return try healthcheck(text)
        case .maintainer, .stopsignal, .user, .workdir:
            return Split(arguments: text.isEmpty ? [] : [whole(text)])
        case .onbuild, .use, nil:
            // BuildKit's parser ignores the arguments of unknown instructions; the empty
            // argument is the value of the node it creates for them.
            return Split(arguments: [InstructionWord(text: "", range: nil)])
        }
    }

    /// The text as one argument.
    private static func whole(_ text: ArraySlice<Unicode.Scalar>) -> InstructionWord {
        InstructionWord(text: String(scalars: text), range: text.startIndex..<text.endIndex)
    }

    private static func whitespaceDelimited(_ text: ArraySlice<Unicode.Scalar>) -> [InstructionWord] {
        guard !text.isEmpty else { return [] }
        return text.rangesSplitOnTokenWhitespace().map { InstructionWord(text: String(scalars: text[$0]), range: $0) }
    }

    private static func maybeJSON(_ text: ArraySlice<Unicode.Scalar>) throws(Fault) -> Split {
        guard !text.isEmpty else { return Split(arguments: []) }
        do {
            return Split(arguments: try JSONArray.strings(in: text), isJSONForm: true)
        } catch .notStringArray {
            throw Fault(message: "when using JSON array syntax, arrays must be comprised of strings only")
        } catch {
            return Split(arguments: [whole(text)])
        }
    }

    private static func maybeJSONList(_ text: ArraySlice<Unicode.Scalar>) throws(Fault) -> Split {
        do {
            return Split(arguments: try JSONArray.strings(in: text), isJSONForm: true)
        } catch .notStringArray {
            throw Fault(message: "when using JSON array syntax, arrays must be comprised of strings only")
        } catch {
            return Split(arguments: whitespaceDelimited(text))
        }
    }

    /// `ENV`/`LABEL`: either the old `KEY value with spaces` form or `k=v k2="v 2"` pairs.
    private static func nameValuePairs(
        _ text: ArraySlice<Unicode.Scalar>, keyword: String, escape: Unicode.Scalar
    ) throws(Fault) -> Split {
        let words = WordSplitter.words(in: text, escape: escape)
        guard let first = words.first else { return Split(arguments: []) }
        if !first.text.contains("=") {
            let parts = text.rangesSplitOnTokenWhitespace(limit: 2)
            guard parts.count == 2 else { throw Fault(message: "\(keyword) must have two arguments") }
            return Split(arguments: parts.map { InstructionWord(text: String(scalars: text[$0]), range: $0) })
        }
        var arguments: [InstructionWord] = []
        for word in words {
            guard let equals = word.text.firstIndex(of: "=") else {
                throw Fault(message: "Syntax error - can't find = in \"\(word.text)\". Must be of the form: name=value")
            }
            // A verbatim word's key and value are verbatim too, on either side of its `=`.
            let key = String(word.text[..<equals])
            let keyLength = key.unicodeScalars.count
            arguments.append(InstructionWord(text: key, range: word.range.map { $0.lowerBound..<$0.lowerBound + keyLength }))
            let value = String(word.text[word.text.index(after: equals)...])
            arguments.append(
                InstructionWord(text: value, range: word.range.map { $0.lowerBound + keyLength + 1..<$0.upperBound }))
        }
        return Split(arguments: arguments)
    }

    /// `HEALTHCHECK`: a type word (`CMD` or `NONE`), then a command in either form.
    private static func healthcheck(_ text: ArraySlice<Unicode.Scalar>) throws(Fault) -> Split {
        // BuildKit tests single bytes with `unicode.IsSpace(rune(b))` here, so only ASCII white
        // space splits: U+2028 or U+3000 after the type word stay in the command. (NEL and NBSP,
        // whose second byte Go reads as a space, would be cut in half, which no string holds.)
        let isSpaceByte = { (scalar: Unicode.Scalar) in scalar.isASCII && scalar.isGoSpace }
        guard let separator = text.firstIndex(where: isSpaceByte) ?? Optional(text.endIndex),
            separator > text.startIndex
        else { return Split(arguments: []) }
        let command = text[separator...].drop(while: isSpaceByte)
        var split = try maybeJSON(command)
        split.arguments.insert(whole(text[..<separator]), at: 0)
        return split
    }
}
