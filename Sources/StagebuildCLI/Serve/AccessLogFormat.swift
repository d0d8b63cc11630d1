import Foundation
import SanityServer
import Serialization

/// The access-log lines `stagebuild serve` writes to stderr, one per answered request.
enum AccessLogFormat {
    /// `PEER "METHOD TARGET VERSION" STATUS BYTES DURATIONms`, in the spirit of the common log format.
    static func text(_ entry: AccessLogEntry) -> String {
        var line = ""
        text(entry, appendingTo: &line)
        return line
    }

    /// The same line, appended to `lines`: one buffer for a whole batch.
    static func text(_ entry: AccessLogEntry, appendingTo lines: inout String) {
        lines += entry.peer.description
        lines += " \""
        var first = true
        for part in [entry.method, entry.target, entry.version] {
            guard let part else { continue }
            if !first { lines += " " }
            first = false
            lines += escaped(part)
        }
        lines += "\" "
        lines += String(entry.status)
        lines += " "
        lines += String(entry.bytes)
        // One decimal, as "%.1f" prints it, without Foundation's formatter on the hot path.
        let tenths = Int((max(entry.durationMilliseconds, 0) * 10).rounded())
        lines += " "
        lines += String(tenths / 10)
        lines += "."
        lines += String(tenths % 10)
        lines += "ms"
    }

    /// One JSON object: `time` (Unix seconds), `peer`, `method`, `target`, `version`, `status`,
    /// `bytes`, `durationMs`; absent request parts are null.
    static func json(_ entry: AccessLogEntry) -> String {
        JSONValue.sortedObject([
            ("time", .number(entry.time)), ("peer", .string(entry.peer.description)), ("method", .string(entry.method)),
            ("target", .string(entry.target)), ("version", .string(entry.version)), ("status", .integer(entry.status)),
            ("bytes", .integer(entry.bytes)), ("durationMs", .number((entry.durationMilliseconds * 10).rounded() / 10)),
        ]).text(layout: .compact)
    }

    /// Control characters from a malformed request line never reach the terminal raw.
    private static func escaped(_ text: String) -> String {
        // Nearly every request line is printable ASCII already.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where ControlCharacters.isEscaped(scalar): result += ControlCharacters.escape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
