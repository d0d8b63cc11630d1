import DockerfileSyntax
import Serialization

// A template's parameters bound: the values its FROM and ARG lines take.
extension CompositionSession {
    /// The values of a base template's FROM parameters (``TemplateParameter/isInFrom``): the
    /// bound value, else the default, each as the word its build stage's `ARG NAME` gets.
    func fromParameterValues(
        _ template: StageTemplate, bound: [String: BoundValue], reference: Stagefile.Reference
    ) throws(CompositionError) -> [String: BoundValue] {
        var result: [String: BoundValue] = [:]
        for parameter in template.parameters where parameter.isInFrom {
            if let value = bound[parameter.name] {
                result[parameter.name] = value
            } else if let word = parameter.defaultWord, let value = parameter.defaultValue {
                result[parameter.name] = BoundValue(
                    name: parameter.name, word: word, location: reference.location, value: value)
            }
        }
        return result
    }

    /// A base template's FROM image with its parameters' values in place: it must read as one
    /// image reference, so a value can never add a word or a flag.
    func fromImage(
        _ written: String, of template: StageTemplate, values: [String: BoundValue], reference: Stagefile.Reference
    ) throws(CompositionError) -> String {
        guard written.contains("$") else { return written }
        let bad = values.values.first { value in
            !value.value.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-:/@".unicodeScalars.contains($0))
            }
        }
        let image = template.syntax.directives.escapeCharacter.expanded(written, values: values.mapValues(\.value))
        if let bad {
            throw CompositionError(
                "value of \(bad.name) goes into stage template '\(template.name)''s FROM image reference, which takes "
                    + "letters, digits and . _ - : / @ only", file: stagefile.displayPath, at: bad.location)
        }
        guard let image, (try? ImageReference(parsing: image)) != nil else {
            throw CompositionError(
                "stage template '\(template.name)''s FROM \(written) reads as \(image ?? written), which is no image "
                    + "reference", file: stagefile.displayPath, at: reference.location)
        }
        return image
    }

    /// A base template's FROM flag (`--platform=${PLAT}`) with the values of the parameters it
    /// reads in place, as in its image (their ARG lines are not written, so nothing else would
    /// give them); other references (`$BUILDPLATFORM`) stay as written.
    func fromFlag(
        _ written: String, of template: StageTemplate, values: [String: BoundValue]
    ) throws(CompositionError)
        -> String
    {
        let read = DockerfileDocument.references(in: written).compactMap { values[$0] }
        guard !read.isEmpty else { return written }
        if let bad = read.first(where: { value in
            !value.value.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-/,".unicodeScalars.contains($0))
            }
        }) {
            throw CompositionError(
                "value of \(bad.name) goes into stage template '\(template.name)''s FROM flag \(written), which takes "
                    + "letters, digits and . _ - / , only", file: stagefile.displayPath, at: bad.location)
        }
        return template.syntax.directives.escapeCharacter.expanded(
            written, values: values.mapValues(\.value), keepingQuotes: true) ?? written
    }

    /// A template's parameter `ARG` as composed: `nil` (keep it as written) when no name on it
    /// is bound, otherwise the line with each bound name's value in place of its default.
    func argumentLine(_ instruction: Instruction, values: [String: BoundValue]) throws(CompositionError) -> String? {
        let declarations = instruction.asArg?.declarations ?? []
        let words = declarations.map { declaration in
            values[declaration.name.text].map { "\(declaration.name.text)=\($0.word)" } ?? declaration.word.text
        }
        guard words != declarations.map(\.word.text) else { return nil }
        let line = "\(instruction.keyword) \(words.joined(separator: " "))"
        let length = line.utf8.count
        if length >= DockerfileParser.maximumLineLength,
            let bound = declarations.lazy.compactMap({ values[$0.name.text] }).max(by: { $0.word.utf8.count < $1.word.utf8.count }
            )
        {
            throw CompositionError(
                "value of \(bound.name) is \(bound.word.utf8.count) bytes once quoted, so its ARG line would be \(length) "
                    + "bytes; a Dockerfile line holds at most \(DockerfileParser.maximumLineLength - 1)",
                file: stagefile.displayPath, at: bound.location)
        }
        return line
    }

    /// A parameter value given in the Stagefile, quoted for the output.
    struct BoundValue {
        /// The parameter name.
        var name: String
        /// The value as a Dockerfile word, quoted so that BuildKit reads back the given text.
        var word: String
        /// Where the Stagefile binds it.
        var location: SourceLocation
        /// The value as given, unquoted.
        var value: String
        /// True for the lockfile's snapshot time, which the Stagefile did not give.
        var isFromLockfile = false
    }

    /// Checks the values a reference binds against the template's parameters and this build
    /// stage, and quotes them.
    ///
    /// - Returns: The bound values by parameter name; a parameter left at its default has none.
    mutating func bind(
        _ template: StageTemplate, reference: Stagefile.Reference, requiredBy: String?
    ) throws(CompositionError) -> [String: BoundValue] {
        var given: [String: Stagefile.Binding] = [:]
        for binding in reference.bindings {
            guard template.parameter(named: binding.name) != nil else {
                let known = template.parameters.map(\.name)
                let suggestions = NameSuggestions.closest(to: binding.name, in: known)
                let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
                let list = known.isEmpty ? "it has no parameters" : "its parameters: " + known.joined(separator: ", ")
                throw CompositionError(
                    "stage template '\(template.name)' has no parameter \(binding.name) (\(list))\(hint)",
                    file: stagefile.displayPath, at: binding.location)
            }
            if let earlier = given[binding.name], earlier.value != binding.value {
                throw CompositionError(
                    "\(binding.name) is given twice", file: stagefile.displayPath, at: binding.location)
            }
            given[binding.name] = binding
        }
        var fromLockfile: Set<String> = []
        for (parameter, time) in lockedSnapshots where given[parameter] == nil && template.parameter(named: parameter) != nil {
            given[parameter] = Stagefile.Binding(name: parameter, value: time, location: reference.location)
            fromLockfile.insert(parameter)
        }
        var values: [String: BoundValue] = [:]
        for parameter in template.parameters {
            let word: String
            if let binding = given[parameter.name] {
                do {
                    word = try WordQuoting.quoted(binding.value, escape: escape)
                } catch {
                    throw CompositionError(
                        "value of \(parameter.name) cannot be written as data", file: stagefile.displayPath, at: binding.location)
                }
                values[parameter.name] = BoundValue(
                    name: parameter.name, word: word, location: binding.location, value: binding.value,
                    isFromLockfile: fromLockfile.contains(parameter.name))
            } else if let defaultWord = parameter.defaultWord {
                word = defaultWord
            } else if globalArgumentValues[parameter.name] != nil && !parameter.isInFrom {
                // The template's `ARG NAME` reads the Stagefile's global ARG of that name, as a
                // build stage's ARG without a default reads a global one (Dockerfile reference,
                // "Understand how ARG and FROM interact").
                continue
            } else {
                var via =
                    requiredBy.map { " (it is required by '\($0)'; USE \(template.name) \(parameter.name)=… before it)" } ?? ""
                if parameter.isInFrom && globalArguments.contains(parameter.name) {
                    via +=
                        "; a global ARG does not reach a base template's FROM: bind it with FROM stage:\(template.name) "
                        + "\(parameter.name)=…"
                } else if globalArguments.contains(parameter.name) {
                    via += "; the Stagefile's global ARG \(parameter.name) has no value to give it"
                }
                throw CompositionError(
                    "stage template '\(template.name)' needs a value for its parameter \(parameter.name)\(via)",
                    file: stagefile.displayPath, at: reference.location)
            }
            // Values compare as the builder reads them, quotes removed: `3000` and `"3000"` agree.
            if let earlier = stage.values[parameter.name],
                escape.unquoted(earlier.value) != escape.unquoted(word)
            {
                throw CompositionError(
                    "parameter \(parameter.name) is \(earlier.value) in stage template '\(earlier.template)' but \(word) in "
                        + "'\(template.name)' within one build stage; give both the same value",
                    file: stagefile.displayPath, at: given[parameter.name]?.location ?? reference.location)
            }
            stage.values[parameter.name] = (word, template.name)
        }
        return values
    }
}
