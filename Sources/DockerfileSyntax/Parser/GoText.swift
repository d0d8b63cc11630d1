// BuildKit is written in Go; these helpers reproduce the few Go text functions whose exact
// behaviour decides how BuildKit splits a Dockerfile, so that our parser agrees with it.

extension Unicode.Scalar {
    /// Go's `unicode.IsSpace`: ASCII white space, NEL, NBSP and Unicode's `Zs` separators.
    var isGoSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F,
            0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// `[a-zA-Z]`.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }

    /// `[0-9]`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }

    /// The characters of BuildKit's `[\t\v\f\r ]` class, which splits whitespace-delimited
    /// arguments (FROM, EXPOSE) and the instruction keyword from its arguments.
    var isTokenWhitespace: Bool {
        switch value {
        case 0x09, 0x0B, 0x0C, 0x0D, 0x20: return true
        default: return false
        }
    }
}

extension ArraySlice where Element == Unicode.Scalar {
    /// Where the pieces are when this slice is split on runs of `[\t\v\f\r ]` as Go's
    /// `regexp.Split(s, limit)` splits it: `limit` pieces at most (the last holds the rest),
    /// `nil` for no limit; an empty slice gives one empty piece. Indices are this slice's.
    func rangesSplitOnTokenWhitespace(limit: Int? = nil) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var pieceStart = startIndex
        var index = startIndex
        while index < endIndex {
            if let limit, pieces.count == limit - 1 { break }
            if self[index].isTokenWhitespace {
                pieces.append(pieceStart..<index)
                while index < endIndex, self[index].isTokenWhitespace { index += 1 }
                pieceStart = index
                continue
            }
            index += 1
        }
        pieces.append(pieceStart..<endIndex)
        return pieces
    }

    /// Go's `strings.TrimSpace`; the result keeps this slice's indices.
    func trimmingGoSpace() -> ArraySlice<Unicode.Scalar> {
        guard let first = firstIndex(where: { !$0.isGoSpace }), let last = lastIndex(where: { !$0.isGoSpace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

extension Array where Element == Unicode.Scalar {
    /// Go's `strings.TrimSpace`.
    func trimmingGoSpace() -> ArraySlice<Unicode.Scalar> {
        self[...].trimmingGoSpace()
    }
}

extension String {
    /// The string's Unicode scalars as an array, the unit BuildKit's rune loops work in.
    public var scalars: [Unicode.Scalar] { Array(unicodeScalars) }

    /// Builds a string from Unicode scalars.
    init<S: Sequence>(scalars: S) where S.Element == Unicode.Scalar {
        // Encoding into one byte buffer is several times faster than appending scalars to a
        // UnicodeScalarView one at a time, and this runs for every piece of every line.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
