/// Splits leading `--name=value` builder flags off an instruction's arguments, as BuildKit's
/// `extractBuilderFlags` does: flags end at the first word that does not start with `--`, or
/// after a lone `--`; quotes inside a flag are removed and `\` escapes the next byte.
enum BuilderFlags {
    /// One flag as BuildKit reads it, with where it is written.
    struct Flag {
        /// The flag, quotes and escapes removed: `--from=build` for `--from="build"`.
        var text: String
        /// From its `--` to its end, quotes included (indices of the text read).
        var range: Range<Int>
        /// Where each scalar of ``text`` is written (indices of the text read); for a scalar
        /// made of one byte of a non-ASCII character, an index at that character.
        var positions: [Int]
    }

    /// - Parameter text: The instruction line after its keyword.
    /// - Returns: The flags, and the rest of the line (not yet trimmed).
    static func extract(from text: ArraySlice<Unicode.Scalar>) -> (flags: [Flag], rest: ArraySlice<Unicode.Scalar>) {
        // Most instructions have no flag: nothing to read when the first word is no `--`.
        let first = text.firstIndex { !$0.isGoSpace } ?? text.endIndex
        guard first + 1 < text.endIndex, text[first] == "-", text[first + 1] == "-" else { return ([], text[first...]) }
        var reader = FlagReader(text)
        var flags: [Flag] = []
        while reader.skipToFlag() {
            let word = reader.word()
            if word.text == "--" { break }
            if word.counts { flags.append(Flag(text: word.text, range: word.range, positions: word.positions)) }
        }
        return (flags, reader.rest)
    }
}

/// Reads flag words byte by byte, as BuildKit does: it turns each byte into a rune, so a
/// non-ASCII byte inside a flag becomes the Latin-1 character of the same value. We do the
/// same, or our flag lists would differ from BuildKit's for such files.
private struct FlagReader {
    /// One word read.
    struct Word {
        var text: String
        var range: Range<Int>
        var positions: [Int]
        /// False for an empty word that had no quotes: BuildKit drops it.
        var counts: Bool
    }

    let text: ArraySlice<Unicode.Scalar>
    let bytes: [UInt8]
    /// For each byte, and one past the end, the index in `text` after the scalars that start
    /// before it: a scalar's first byte maps to its own index, its other bytes to the next.
    let scalarIndex: [Int]
    var position = 0

    init(_ text: ArraySlice<Unicode.Scalar>) {
        self.text = text
        bytes = Array(String(scalars: text).utf8)
        var scalarIndex: [Int] = []
        scalarIndex.reserveCapacity(bytes.count + 1)
        var started = text.startIndex
        for byte in bytes {
            scalarIndex.append(started)
            if byte & 0xC0 != 0x80 { started += 1 }
        }
        scalarIndex.append(started)
        self.scalarIndex = scalarIndex
    }

    /// The text from the current byte on.
    var rest: ArraySlice<Unicode.Scalar> { text[scalarIndex[position]...] }

    /// Skips white space; true when a `--` word starts there, false at the end or at a word
    /// that is no flag (the arguments start there).
    mutating func skipToFlag() -> Bool {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        return position + 1 < bytes.count && bytes[position] == UInt8(ascii: "-") && bytes[position + 1] == UInt8(ascii: "-")
    }

    /// Reads one word up to white space outside quotes or the end, quotes removed and each
    /// escaped byte kept; an escape character at the very end is dropped.
    mutating func word() -> Word {
        let start = position
        var scalars: [Unicode.Scalar] = []
        var positions: [Int] = []
        var quote: UInt8?
        var quoted = false
        while position < bytes.count {
            let byte = bytes[position]
            if quote == nil && isSpace(byte) { break }
            if byte == quote {
                quote = nil
                position += 1
                continue
            }
            if quote == nil && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")) {
                quote = byte
                quoted = true
                position += 1
                continue
            }
            if byte == UInt8(ascii: "\\") {
                position += 1
                if position == bytes.count {
                    quote = nil
                    break
                }
            }
            scalars.append(Unicode.Scalar(bytes[position]))
            positions.append(scalarIndex[position])
            position += 1
        }
        return Word(
            text: String(scalars: scalars), range: scalarIndex[start]..<scalarIndex[position], positions: positions,
            counts: quoted || !scalars.isEmpty)
    }

    private func isSpace(_ byte: UInt8) -> Bool { Unicode.Scalar(byte).isGoSpace }
}
