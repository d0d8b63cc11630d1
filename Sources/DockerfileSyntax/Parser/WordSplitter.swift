/// Splits arguments into words at white space outside quotes, keeping quotes and escapes in
/// the words (BuildKit's `parseWords`, used for `ENV`, `LABEL` and `ARG`).
enum WordSplitter {
    /// - Parameters:
    ///   - text: The arguments after the keyword and flags.
    ///   - escape: The file's escape character.
    /// - Returns: The words, quotes and escape characters included, each with where it is
    ///   written (indices of `text`); a word's range is `nil` when the word is not written as
    ///   it stands (an escape character at the very end is dropped).
    static func words(in text: ArraySlice<Unicode.Scalar>, escape: Unicode.Scalar) -> [InstructionWord] {
        var words: [InstructionWord] = []
        var word: [Unicode.Scalar] = []
        var wordStart = text.startIndex
        func append(endingAt end: Int) {
            let verbatim = text[wordStart..<end].elementsEqual(word)
            words.append(InstructionWord(text: String(scalars: word), range: verbatim ? wordStart..<end : nil))
        }
        var inWord = false
        var quote: Unicode.Scalar?
        var blankOK = false
        var index = text.startIndex
        while index <= text.endIndex {
            let atEnd = index == text.endIndex
            if !inWord && quote == nil {
                if atEnd { break }
                if text[index].isGoSpace {
                    index += 1
                    continue
                }
                inWord = true
                wordStart = index
            }
            if atEnd {
                if blankOK || !word.isEmpty { append(endingAt: index) }
                break
            }
            var scalar = text[index]
            if let open = quote {
                if scalar == open { quote = nil }
                if scalar == escape && open != "'" {
                    if index + 1 == text.endIndex {
                        quote = nil
                        index += 1
                        continue
                    }
                    word.append(scalar)
                    index += 1
                    scalar = text[index]
                }
                word.append(scalar)
                index += 1
                continue
            }
            if scalar.isGoSpace {
                inWord = false
                if blankOK || !word.isEmpty { append(endingAt: index) }
                word = []
                blankOK = false
                index += 1
                continue
            }
            if scalar == "'" || scalar == "\"" {
                quote = scalar
                blankOK = true
            }
            if scalar == escape {
                if index + 1 == text.endIndex {
                    index += 1
                    continue
                }
                word.append(scalar)
                index += 1
                scalar = text[index]
            }
            word.append(scalar)
            index += 1
        }
        return words
    }
}
