/// Splits an instruction's arguments per keyword, as BuildKit's dispatch table of line
/// parsers does (`frontend/dockerfile/parser/line_parsers.go`).
enum ArgumentSplitter {
    /// The split arguments and whether they came from a JSON array.
    struct Split {
        var arguments: [String]
        var isJSONForm = false
    }

    /// A fault BuildKit reports for the arguments of one instruction.
    struct Fault: Error {
        var message: String
    }

    /// - Parameters:
    ///   - keyword: The instruction's keyword; `nil` for an unknown one.
    ///   - text: The arguments after flags, trimmed.
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
            return Split(arguments: text.isEmpty ? [] : [String(scalars: text)])
        case .onbuild, .use, nil:
            // BuildKit's parser ignores the arguments of unknown instructions; the empty
            // argument is the value of the node it creates for them.
            return Split(arguments: [""])
        }
    }

    static func whitespaceDelimited(_ text: ArraySlice<Unicode.Scalar>) -> [String] {
        guard !text.isEmpty else { return [] }
        return Array(text).splitOnTokenWhitespace().map { String(scalars: $0) }
    }

    private static func maybeJSON(_ text: ArraySlice<Unicode.Scalar>) throws(Fault) -> Split {
        guard !text.isEmpty else { return Split(arguments: []) }
        do {
            return Split(arguments: try JSONArray.strings(in: text), isJSONForm: true)
        } catch .notStringArray {
            throw Fault(message: "when using JSON array syntax, arrays must be comprised of strings only")
        } catch {
            return Split(arguments: [String(scalars: text)])
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
        if !first.contains("=") {
            let parts = Array(text).splitOnTokenWhitespace(limit: 2)
            guard parts.count == 2 else { throw Fault(message: "\(keyword) must have two arguments") }
            return Split(arguments: parts.map { String(scalars: $0) })
        }
        var arguments: [String] = []
        for word in words {
            guard let equals = word.firstIndex(of: "=") else {
                throw Fault(message: "Syntax error - can't find = in \"\(word)\". Must be of the form: name=value")
            }
            arguments.append(String(word[..<equals]))
            arguments.append(String(word[word.index(after: equals)...]))
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
        let kind = String(scalars: text[..<separator])
        let command = text[separator...].drop(while: isSpaceByte)
        var split = try maybeJSON(command)
        split.arguments.insert(kind, at: 0)
        return split
    }
}
