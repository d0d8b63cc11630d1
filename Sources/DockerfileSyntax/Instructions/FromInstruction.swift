/// `FROM [--platform=P] BASE [AS NAME]` (Dockerfile reference, "FROM"), and the Stagefile's
/// `FROM stage:NAME [AS alias] [KEY=VALUE ...]`.
public struct FromInstruction: Sendable, Hashable {
    /// The `--platform` value, e.g. `$BUILDPLATFORM`; `nil` without the flag.
    public var platform: InstructionWord?
    /// What the build stage starts from as written: an image reference, `scratch`, an earlier
    /// build stage's name or, in a Stagefile, `stage:NAME`; `nil` for a `FROM` without one.
    public var base: InstructionWord?
    /// The `AS` word as written (any case); `nil` without a name.
    public var asKeyword: InstructionWord?
    /// The build stage's name as written; `nil` without one.
    public var alias: InstructionWord?
    /// The words after the base that are not `AS NAME`: none in a valid Dockerfile, the
    /// bindings of a Stagefile's template reference.
    public var otherWords: [InstructionWord]

    /// The build stage's name lower-cased, as BuildKit compares stage names.
    public var stageName: String? { alias?.text.lowercased() }
}

extension Instruction {
    /// The instruction read as `FROM`; `nil` for any other keyword.
    public var asFrom: FromInstruction? {
        guard knownKeyword == .from else { return nil }
        var words = argumentWords[...]
        let base = words.popFirst()
        var asKeyword: InstructionWord?
        var alias: InstructionWord?
        if words.count >= 2, words[words.startIndex].text.uppercased() == "AS" {
            asKeyword = words.popFirst()
            alias = words.popFirst()
        }
        return FromInstruction(
            platform: flagWord("platform"), base: base, asKeyword: asKeyword, alias: alias, otherWords: Array(words))
    }
}
