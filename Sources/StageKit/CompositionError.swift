import DockerfileSyntax

/// A Stagefile or stage template that cannot be composed, with the file and position to fix.
public struct CompositionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file the fault is in, as the user named it or relative to the Stagefile.
    public var file: String
    /// The position in that file, when there is one.
    public var location: SourceLocation?
    /// What is wrong and, where there is one, how to fix it.
    public var message: String
    /// True when a file could not be read (an I/O failure, exit 74), false when an input says
    /// something wrong (bad data, exit 65).
    public var isReadFailure: Bool

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - file: The file.
    ///   - location: The position in the file.
    ///   - isReadFailure: Whether the file could not be read at all.
    public init(_ message: String, file: String, at location: SourceLocation? = nil, isReadFailure: Bool = false) {
        self.message = message
        self.file = file
        self.location = location
        self.isReadFailure = isReadFailure
    }

    /// `file:line:column: message`, the form editors and CI annotate.
    public var description: String {
        guard let location else { return "\(file): \(message)" }
        return "\(file):\(location.line):\(location.column): \(message)"
    }
}

extension CompositionError {
    /// A template or Stagefile whose last instruction is still continued when the file ends:
    /// composed, the next line of the output (another template's first step) would be joined
    /// to it.
    ///
    /// - Parameters:
    ///   - instruction: The instruction with ``Instruction/continuesPastEndOfFile``.
    ///   - file: The path shown.
    static func openContinuation(_ instruction: Instruction, file: String) -> CompositionError {
        CompositionError(
            "the last instruction ends with a line continuation, so in a composed file it would swallow the "
                + "instruction after it; remove the escape character at the end of its last line",
            file: file, at: instruction.location)
    }
}
