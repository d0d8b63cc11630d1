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
        let line = logicalLine.scalars
        var pairs: [KeyValueInstruction.Pair] = []
        var searchFrom = argumentsOffset
        // In the `key=value` form the first key is followed by `=` where the arguments start.
        let afterFirstKey = argumentsOffset + (arguments.first?.unicodeScalars.count ?? 0)
        let legacy = arguments.count == 2 && (afterFirstKey >= line.count || line[afterFirstKey] != "=")
        var index = 0
        while index + 1 < arguments.count {
            let key = arguments[index]
            let value = arguments[index + 1]
            let separator = legacy ? "" : "="
            var keyRange: Range<Int>?
            var valueRange: Range<Int>?
            if let start = Self.offset(of: key + separator, in: line, from: searchFrom) {
                keyRange = start..<start + key.unicodeScalars.count
                let valueStart =
                    legacy
                    ? (Self.offset(of: value, in: line, from: keyRange!.upperBound) ?? -1)
                    : keyRange!.upperBound + 1
                let valueEnd = valueStart + value.unicodeScalars.count
                if valueStart >= 0, valueEnd <= line.count, line[valueStart..<valueEnd].elementsEqual(value.unicodeScalars) {
                    valueRange = valueStart..<valueEnd
                    searchFrom = valueEnd
                } else {
                    searchFrom = keyRange!.upperBound
                }
            }
            pairs.append(
                KeyValueInstruction.Pair(
                    key: InstructionWord(text: key, range: keyRange), value: InstructionWord(text: value, range: valueRange)))
            index += 2
        }
        return KeyValueInstruction(pairs: pairs, isLegacyForm: legacy)
    }
}
