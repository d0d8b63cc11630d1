/// The value of a time option (`--connect-timeout`, `--max-time`, `--deadline`).
enum SecondsOption {
    /// Seconds from 0.001 to 86400 (a day; decimals allowed), or `nil` when not given. libcurl
    /// takes whole milliseconds and reads 0 as "its default": anything shorter would not apply.
    ///
    /// - Parameters:
    ///   - text: the option's value, or `nil` when it was not given.
    ///   - option: the option's name, for the message.
    /// - Returns: the seconds, or `nil`.
    /// - Throws: `CommandFailure.usage` for anything else, e.g. `--max-time must be a number of seconds
    ///   from 0.001 to 86400, not '-1'`.
    static func parse(_ text: String?, option: String) throws(CommandFailure) -> Double? {
        guard let text else { return nil }
        guard let number = Double(text), number.isFinite, number >= 0.001, number <= 86_400 else {
            throw CommandFailure.usage("\(option) must be a number of seconds from 0.001 to 86400, not '\(text)'")
        }
        return number
    }
}
