/// `HEALTHCHECK [OPTIONS] CMD command` or `HEALTHCHECK NONE` (Dockerfile reference,
/// "HEALTHCHECK").
public struct HealthcheckInstruction: Sendable, Hashable {
    /// True for `HEALTHCHECK NONE`, which turns off a check the base image set.
    public var isNone: Bool
    /// The check's command; `nil` for `NONE`.
    public var command: CommandForm?
    /// `--interval`, `--timeout`, `--start-period`, `--start-interval`, `--retries` as written
    /// (Go durations or a count), by option name without dashes.
    public var options: [String: InstructionWord]
}

extension Instruction {
    /// The instruction read as `HEALTHCHECK`; `nil` for any other keyword.
    public var asHealthcheck: HealthcheckInstruction? {
        guard knownKeyword == .healthcheck else { return nil }
        var options: [String: InstructionWord] = [:]
        for name in ["interval", "timeout", "start-period", "start-interval", "retries"] {
            options[name] = flagWord(name)
        }
        let isNone = arguments.first?.uppercased() == "NONE"
        return HealthcheckInstruction(
            isNone: isNone, command: isNone ? nil : CommandForm(self, dropping: 1), options: options)
    }
}
