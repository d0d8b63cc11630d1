/// `ENV` and `LABEL` (Dockerfile reference, "ENV", "LABEL"): `key=value` pairs, or the old
/// `ENV key value with spaces` form with one pair.
public struct KeyValueInstruction: Sendable, Hashable {
    /// One pair.
    public struct Pair: Sendable, Hashable {
        /// The key as written.
        public var key: InstructionWord
        /// The value as written, quotes kept.
        public var value: InstructionWord
    }

    /// The pairs in order.
    public var pairs: [Pair]
    /// True for the old `key value` form (no `=`), which BuildKit's linter flags as
    /// LegacyKeyValueFormat.
    public var isLegacyForm: Bool
}

extension Instruction {
    /// The instruction read as `ENV` or `LABEL`; `nil` for any other keyword.
    public var asKeyValue: KeyValueInstruction? {
        guard knownKeyword == .env || knownKeyword == .label else { return nil }
        // In the `key=value` form the first key is followed by `=` where the arguments start.
        let line = logicalLine.scalars
        let afterFirstKey = argumentsOffset + (arguments.first?.unicodeScalars.count ?? 0)
        let legacy = arguments.count == 2 && (afterFirstKey >= line.count || line[afterFirstKey] != "=")
        let pairs = stride(from: 0, to: argumentWords.count - 1, by: 2).map {
            KeyValueInstruction.Pair(key: argumentWords[$0], value: argumentWords[$0 + 1])
        }
        return KeyValueInstruction(pairs: pairs, isLegacyForm: legacy)
    }
}
