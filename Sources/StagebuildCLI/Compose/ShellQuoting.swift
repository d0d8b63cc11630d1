import Foundation

/// Quotes a word for a POSIX shell, so a command printed for the user can be pasted as is.
enum ShellQuoting {
    /// The word unchanged when it holds only characters no shell treats specially, otherwise
    /// in single quotes with each `'` written as `'\''`.
    static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-./:@%+,=".unicodeScalars.contains(scalar))
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
