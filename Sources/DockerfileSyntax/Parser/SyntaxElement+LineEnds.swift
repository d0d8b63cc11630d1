extension SyntaxElement {
    /// The element's text with every line end written as LF, except inside heredoc bodies.
    ///
    /// BuildKit ends a line at LF and trims the CRs before it (so CRLF and CR CR LF end a line
    /// too; a lone CR is white space inside a line), but it keeps a heredoc body's lines as
    /// written: their bytes are a file's content. A last line without a line end keeps none.
    public var textWithLFLineEnds: String {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        var rawLines: Set<Int> = []
        if case .instruction(let instruction) = kind {
            var line = instruction.lineMap.lineCount
            for heredoc in instruction.heredocs + (instruction.onbuildTrigger?.heredocs ?? []) {
                let bodyLines = heredoc.content.utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count
                rawLines.formUnion(line..<line + bodyLines)
                line += bodyLines + 1
            }
        }
        var result = String.UnicodeScalarView()
        var current: [Unicode.Scalar] = []
        var lineIndex = 0
        for scalar in text.unicodeScalars {
            guard scalar == "\n" else {
                current.append(scalar)
                continue
            }
            if !rawLines.contains(lineIndex) {
                while current.last == "\r" { current.removeLast() }
            }
            result.append(contentsOf: current)
            result.append("\n")
            current.removeAll(keepingCapacity: true)
            lineIndex += 1
        }
        while current.last == "\r" { current.removeLast() }
        result.append(contentsOf: current)
        return String(result)
    }
}
