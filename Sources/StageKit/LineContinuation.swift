/// Where the parser continues an instruction onto the next line: the escape character at the
/// end of a line, followed only by spaces and tabs, and not itself escaped.
enum LineContinuation {
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// True when a line (without its line ending) asks for the next line to be joined to it.
    ///
    /// - Parameters:
    ///   - line: The line's scalars, `\r` and `\n` removed.
    ///   - escape: The file's escape character.
    static func continues(_ line: ArraySlice<Unicode.Scalar>, escape: Unicode.Scalar) -> Bool {
        var end = line.endIndex
        while end > line.startIndex, isBlank(line[end - 1]) { end -= 1 }
        guard end > line.startIndex, line[end - 1] == escape else { return false }
        return !(end - 1 > line.startIndex && line[end - 2] == escape)
    }

    /// True when an instruction's source text ends while a continuation is still open: its
    /// last line that is not blank or a comment asks for more, so the file ended it. Pasted
    /// above other text, such an instruction would swallow the next instruction line.
    ///
    /// - Parameters:
    ///   - text: The instruction's source text, continuation, comment and blank lines included.
    ///   - escape: The file's escape character.
    static func isOpen(_ text: String, escape: Unicode.Scalar) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated().reversed() {
            var content = Array(line.unicodeScalars)
            while content.last == "\r" { content.removeLast() }
            let rest = content.drop(while: isBlank)
            if index > 0 && (rest.isEmpty || rest.first == "#") { continue }
            return continues(content[...], escape: escape)
        }
        return false
    }
}
