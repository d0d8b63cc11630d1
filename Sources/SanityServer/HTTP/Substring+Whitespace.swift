extension Substring {
    /// The text without leading and trailing SP and HTAB.
    func trimmingWhitespace() -> String {
        let trimmed = drop { $0 == " " || $0 == "\t" }
        var end = trimmed.endIndex
        while end > trimmed.startIndex {
            let previous = trimmed.index(before: end)
            guard trimmed[previous] == " " || trimmed[previous] == "\t" else { break }
            end = previous
        }
        return String(trimmed[..<end])
    }
}
