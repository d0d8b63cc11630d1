import ProbeKit
import Serialization
import StageKit

/// A finding printed as `file:line:column: severity: message`, the form compilers, editors and
/// CI annotations read.
struct Diagnostic {
    var file: String
    var line: Int?
    var column: Int?
    var severity: String
    var message: String

    static func error(_ error: CompositionError) -> Diagnostic {
        Diagnostic(
            file: error.file, line: error.location?.line, column: error.location?.column, severity: "error",
            message: error.message)
    }

    func rendered(color: Bool) -> String {
        var position = file
        if let line { position += ":\(line)" }
        if let column { position += ":\(column)" }
        // Red for errors, magenta for warnings, as compilers colour them.
        let code = severity == "error" ? "1;31" : "1;35"
        let label = color ? "\u{1B}[\(code)m\(severity):\u{1B}[0m" : "\(severity):"
        // A message may quote the file's bytes: control characters are shown as escapes.
        return "\(ControlCharacters.escaped(position)): \(label) \(ControlCharacters.escaped(message))\n"
    }
}
