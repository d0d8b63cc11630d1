import Foundation

/// The `STATE_DIR/env` file a start script writes (`KEY=VALUE` lines) once its servers answer.
enum StateEnvironment {
    /// Reads the file and checks that it has every required key.
    ///
    /// - Parameters:
    ///   - state: The state folder.
    ///   - requiredKeys: The keys the tests read.
    /// - Returns: The values by key.
    /// - Throws: The read error, or `RegistriesError.missingKeys` naming what is missing.
    static func read(state: String, requiredKeys: [String]) throws -> [String: String] {
        let text = try String(contentsOfFile: state + "/env", encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let missing = requiredKeys.filter { values[$0] == nil }
        guard missing.isEmpty else { throw RegistriesError.missingKeys(missing, file: state + "/env") }
        return values
    }
}
