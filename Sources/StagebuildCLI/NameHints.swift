import StageKit

/// "Did you mean" hints for command and option names.
enum NameHints {
    static func closest(to name: String, in candidates: [String]) -> String? {
        NameSuggestions.closest(to: name, in: candidates, limit: 1).first
    }
}
