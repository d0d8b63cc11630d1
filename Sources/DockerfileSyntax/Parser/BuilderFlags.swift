/// Splits leading `--name=value` builder flags off an instruction's arguments, as BuildKit's
/// `extractBuilderFlags` does: flags end at the first word that does not start with `--`, or
/// after a lone `--`; quotes inside a flag are removed and `\` escapes the next byte.
enum BuilderFlags {
    /// - Parameter text: The instruction line after its keyword.
    /// - Returns: The flags, where each is written (indices of `text`, quotes included), and
    ///   the rest of the line (not yet trimmed).
    static func extract(
        from text: ArraySlice<Unicode.Scalar>
    ) -> (flags: [String], ranges: [Range<Int>], rest: ArraySlice<Unicode.Scalar>) {
        // Most instructions have no flag: nothing to read when the first word is no `--`.
        let first = text.firstIndex { !$0.isGoSpace } ?? text.endIndex
        guard first + 1 < text.endIndex, text[first] == "-", text[first + 1] == "-" else { return ([], [], text[first...]) }
        // BuildKit walks this part byte by byte and turns each byte into a rune, so a non-ASCII
        // byte inside a flag becomes the Latin-1 character of the same value. We do the same,
        // or our flag lists would differ from BuildKit's for such files.
        let bytes = Array(String(scalars: text).utf8)
        var flags: [String] = []
        var byteRanges: [Range<Int>] = []
        var wordStart = 0
        var word: [Unicode.Scalar] = []
        var inWord = false
        var quote: UInt8?
        var blankOK = false
        var position = 0

        func rest(at bytePosition: Int) -> ArraySlice<Unicode.Scalar> {
            let prefix = String(decoding: bytes[..<bytePosition], as: UTF8.self).unicodeScalars.count
            return text[(text.startIndex + prefix)...]
        }
        func isSpace(_ byte: UInt8) -> Bool { Unicode.Scalar(byte).isGoSpace }
        func scalarOffset(_ bytePosition: Int) -> Int {
            bytes[..<bytePosition].reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        }
        func result(restAt bytePosition: Int?) -> (flags: [String], ranges: [Range<Int>], rest: ArraySlice<Unicode.Scalar>) {
            let base = text.startIndex
            let ranges = byteRanges.map { base + scalarOffset($0.lowerBound)..<base + scalarOffset($0.upperBound) }
            return (flags, ranges, bytePosition.map(rest(at:)) ?? text[text.endIndex...])
        }

        while position <= bytes.count {
            let atEnd = position == bytes.count
            let byte: UInt8 = atEnd ? 0 : bytes[position]
            if !inWord && quote == nil {
                if atEnd { break }
                if isSpace(byte) {
                    position += 1
                    continue
                }
                if byte != UInt8(ascii: "-") || position + 1 == bytes.count || bytes[position + 1] != UInt8(ascii: "-") {
                    return result(restAt: position)
                }
                inWord = true
                wordStart = position
            }
            if atEnd {
                let value = String(scalars: word)
                if value != "--" && (blankOK || !word.isEmpty) {
                    flags.append(value)
                    byteRanges.append(wordStart..<position)
                }
                break
            }
            if let open = quote {
                if byte == open {
                    quote = nil
                    position += 1
                    continue
                }
                if byte == UInt8(ascii: "\\") {
                    if position + 1 == bytes.count {
                        quote = nil
                        position += 1
                        continue
                    }
                    position += 1
                }
                word.append(Unicode.Scalar(bytes[position]))
                position += 1
                continue
            }
            if isSpace(byte) {
                inWord = false
                let value = String(scalars: word)
                if value == "--" { return result(restAt: position) }
                if blankOK || !word.isEmpty {
                    flags.append(value)
                    byteRanges.append(wordStart..<position)
                }
                word = []
                blankOK = false
                position += 1
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                blankOK = true
                position += 1
                continue
            }
            if byte == UInt8(ascii: "\\") {
                if position + 1 == bytes.count {
                    position += 1
                    continue
                }
                position += 1
            }
            word.append(Unicode.Scalar(bytes[position]))
            position += 1
        }
        return result(restAt: nil)
    }
}
