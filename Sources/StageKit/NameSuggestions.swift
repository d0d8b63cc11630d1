/// Picks the known names closest to a misspelt one, for "did you mean" hints.
public enum NameSuggestions {
    /// The candidates within an edit distance of a third of the name's length (at least 2),
    /// closest first, ties in name order; at most `limit`.
    ///
    /// - Parameters:
    ///   - name: The unknown name.
    ///   - candidates: The known names.
    ///   - limit: The most suggestions to return.
    /// - Returns: Suggested names.
    public static func closest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
        let threshold = max(2, name.count / 3)
        let lowered = name.lowercased()
        return
            candidates
            .map { (name: $0, distance: editDistance(lowered, $0.lowercased())) }
            .filter { $0.distance <= threshold || $0.name.lowercased().contains(lowered) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(limit)
            .map(\.name)
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
