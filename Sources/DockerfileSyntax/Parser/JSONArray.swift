/// Reads the exec form of an instruction: a JSON array of strings (RFC 8259), decoded the way
/// Go's `encoding/json` decodes it, because that is what BuildKit uses.
enum JSONArray {
    /// Why text is not a usable exec form.
    enum Failure: Error {
        /// Not a JSON array at all: BuildKit falls back to the shell form.
        case notJSON
        /// A JSON array with a non-string element: BuildKit rejects the file.
        case notStringArray
    }

    /// - Parameter text: The arguments after keyword and flags.
    /// - Returns: The strings of the array, each with where its text is written inside its
    ///   quotes (indices of `text`) when it is written without escapes, else a `nil` range.
    /// - Throws: `Failure`.
    static func strings(in text: ArraySlice<Unicode.Scalar>) throws(Failure) -> [InstructionWord] {
        let json = text.drop(while: { $0.isGoSpace })
        var reader = Reader(scalars: Array(json))
        guard reader.peek == "[" else { throw .notJSON }
        // BuildKit decodes with a streaming decoder that reads the first JSON value and
        // ignores what follows it, so `["a"] trailing` is the exec form `["a"]`.
        guard let value = reader.value(), case .array(let elements) = value else {
            throw .notJSON
        }
        var strings: [InstructionWord] = []
        for element in elements {
            guard case .string(let string, let written) = element else { throw .notStringArray }
            let range = written.map { json.startIndex + $0.lowerBound..<json.startIndex + $0.upperBound }
            strings.append(InstructionWord(text: string, range: range))
        }
        return strings
    }

    private enum Value {
        /// A string and, when it holds no escape, where its text is (reader indices).
        case string(String, Range<Int>?)
        case array([Value])
        case other
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func skipWhitespace() {
            while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
            }
        }

        mutating func value() -> Value? {
            skipWhitespace()
            guard let scalar = peek else { return nil }
            switch scalar {
            case "[": return array()
            case "{": return object()
            case "\"":
                let start = index + 1
                var escaped = false
                return string(escaped: &escaped).map { .string($0, escaped ? nil : start..<index - 1) }
            case "t": return literal("true")
            case "f": return literal("false")
            case "n": return literal("null")
            default: return number()
            }
        }

        mutating func array() -> Value? {
            index += 1
            var elements: [Value] = []
            skipWhitespace()
            if peek == "]" {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipWhitespace()
                switch peek {
                case ",": index += 1
                case "]":
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        mutating func object() -> Value? {
            index += 1
            skipWhitespace()
            if peek == "}" {
                index += 1
                return .other
            }
            while true {
                skipWhitespace()
                var escaped = false
                guard peek == "\"", string(escaped: &escaped) != nil else { return nil }
                skipWhitespace()
                guard peek == ":" else { return nil }
                index += 1
                guard value() != nil else { return nil }
                skipWhitespace()
                switch peek {
                case ",": index += 1
                case "}":
                    index += 1
                    return .other
                default: return nil
                }
            }
        }

        mutating func literal(_ word: String) -> Value? {
            for expected in word.unicodeScalars {
                guard peek == expected else { return nil }
                index += 1
            }
            return .other
        }

        mutating func number() -> Value? {
            func digits() -> Int {
                let start = index
                while let scalar = peek, scalar.isASCIIDigit { index += 1 }
                return index - start
            }
            if peek == "-" { index += 1 }
            if peek == "0" {
                index += 1
            } else if digits() == 0 {
                return nil
            }
            if peek == "." {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if peek == "e" || peek == "E" {
                index += 1
                if peek == "+" || peek == "-" { index += 1 }
                guard digits() > 0 else { return nil }
            }
            return .other
        }

        /// Reads a string from its opening quote; `escaped` is set when it holds an escape
        /// (then the decoded text differs from what is written).
        mutating func string(escaped: inout Bool) -> String? {
            index += 1
            var result = String.UnicodeScalarView()
            while let scalar = peek {
                index += 1
                switch scalar {
                case "\"":
                    return String(result)
                case "\\":
                    escaped = true
                    guard let next = peek else { return nil }
                    index += 1
                    switch next {
                    case "\"", "\\", "/": result.append(next)
                    case "b": result.append("\u{08}")
                    case "f": result.append("\u{0C}")
                    case "n": result.append("\n")
                    case "r": result.append("\r")
                    case "t": result.append("\t")
                    case "u":
                        guard let unit = hexUnit() else { return nil }
                        result.append(decodeUTF16(startingWith: unit))
                    default: return nil
                    }
                default:
                    guard scalar.value >= 0x20 else { return nil }
                    result.append(scalar)
                }
            }
            return nil
        }

        mutating func hexUnit() -> UInt32? {
            guard index + 4 <= scalars.count else { return nil }
            var unit: UInt32 = 0
            for scalar in scalars[index..<index + 4] {
                guard let digit = scalar.properties.isASCIIHexDigit ? UInt32(String(scalar), radix: 16) : nil else {
                    return nil
                }
                unit = unit * 16 + digit
            }
            index += 4
            return unit
        }

        /// Joins a surrogate pair; a lone surrogate becomes U+FFFD, as Go decodes it.
        mutating func decodeUTF16(startingWith unit: UInt32) -> Unicode.Scalar {
            if (0xD800..<0xDC00).contains(unit), index + 6 <= scalars.count, scalars[index] == "\\",
                scalars[index + 1] == "u"
            {
                let saved = index
                index += 2
                if let low = hexUnit(), (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                index = saved
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }
}
