/// `RUN [--mount=…] [--network=…] [--security=…] COMMAND` (Dockerfile reference, "RUN").
public struct RunInstruction: Sendable, Hashable {
    /// One `--mount=` flag: comma-separated `key=value` options (Dockerfile reference,
    /// "RUN --mount").
    public struct Mount: Sendable, Hashable {
        /// One option, e.g. `type=cache`; a bare option such as `readonly` has an empty value.
        public struct Option: Sendable, Hashable {
            /// The key, lower-cased.
            public var key: String
            /// The value as written.
            public var value: String
        }

        /// The options in order.
        public var options: [Option]
        /// The `from=` value: a build stage or an image; its range when written as it stands.
        public var from: InstructionWord?

        /// The value of an option, e.g. `cache` for `type`; `nil` when absent.
        ///
        /// - Parameter key: The option, lower case.
        public func option(_ key: String) -> String? { options.first { $0.key == key }?.value }

        /// The mount type: `bind` when none is given, as BuildKit defaults.
        public var type: String { option("type") ?? "bind" }

        /// Where it is mounted: `target`, or its other names `dst` and `destination` (BuildKit's
        /// `parseMount`); `nil` without one.
        public var target: String? { option("target") ?? option("dst") ?? option("destination") }
    }

    /// The `--mount` flags in order.
    public var mounts: [Mount]
    /// `--network=`; `nil` without it.
    public var network: InstructionWord?
    /// `--security=`; `nil` without it.
    public var security: InstructionWord?
    /// The command; `nil` for a `RUN` without one.
    public var command: CommandForm?
    /// The heredocs whose bodies follow the line (their scripts, for `RUN <<EOF`).
    public var heredocs: [Heredoc]
}

extension Instruction {
    /// The instruction read as `RUN`; `nil` for any other keyword.
    public var asRun: RunInstruction? {
        guard knownKeyword == .run else { return nil }
        var mounts: [RunInstruction.Mount] = []
        for (index, flag) in flags.enumerated() where flag.hasPrefix("--mount=") {
            var mount = RunInstruction.Mount(options: [], from: nil)
            // Offsets in the flag's text, in Unicode scalars, to place the `from=` value.
            var fieldStart = "--mount=".unicodeScalars.count
            for field in flag.dropFirst("--mount=".count).split(separator: ",", omittingEmptySubsequences: false) {
                defer { fieldStart += field.unicodeScalars.count + 1 }
                guard !field.isEmpty else { continue }
                let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = parts[0].lowercased()
                let value = parts.count == 2 ? String(parts[1]) : ""
                mount.options.append(RunInstruction.Mount.Option(key: key, value: value))
                guard key == "from", !value.isEmpty, mount.from == nil else { continue }
                let valueStart = fieldStart + parts[0].unicodeScalars.count + 1
                let range = writtenRange(ofFlag: index, scalars: valueStart..<valueStart + value.unicodeScalars.count)
                mount.from = InstructionWord(text: value, range: range)
            }
            mounts.append(mount)
        }
        return RunInstruction(
            mounts: mounts, network: flagWord("network"), security: flagWord("security"), command: CommandForm(self),
            heredocs: heredocs)
    }
}
