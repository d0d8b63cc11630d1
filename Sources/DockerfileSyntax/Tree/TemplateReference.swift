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
        return placed(WordSplitter.words(in: line[min(argumentsOffset, line.count)...], escape: escapeCharacter), in: line)
    }
}
