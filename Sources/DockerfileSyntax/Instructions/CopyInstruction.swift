/// `COPY` and `ADD` (Dockerfile reference, "COPY", "ADD"): sources and a destination, in
/// shell or JSON form, with their flags.
public struct CopyInstruction: Sendable, Hashable {
    /// `--from=`: a build stage name or index, or an image; `nil` without it.
    public var from: InstructionWord?
    /// `--chown=USER[:GROUP]`.
    public var chown: InstructionWord?
    /// `--chmod=MODE`.
    public var chmod: InstructionWord?
    /// `ADD --checksum=sha256:…`.
    public var checksum: InstructionWord?
    /// True with `--link`.
    public var link: Bool
    /// The sources as written (heredoc sources as `<<NAME`).
    public var sources: [InstructionWord]
    /// The destination; `nil` when only one word is given.
    public var destination: InstructionWord?
    /// True for the JSON form.
    public var isJSONForm: Bool
}

extension Instruction {
    /// The instruction read as `COPY` or `ADD`; `nil` for any other keyword.
    public var asCopy: CopyInstruction? {
        guard knownKeyword == .copy || knownKeyword == .add else { return nil }
        var words = argumentWords
        let destination = words.count >= 2 ? words.removeLast() : nil
        return CopyInstruction(
            from: flagWord("from"), chown: flagWord("chown"), chmod: flagWord("chmod"), checksum: flagWord("checksum"),
            link: flagWord("link").map { $0.text.isEmpty || $0.text.lowercased() == "true" } ?? false, sources: words,
            destination: destination, isJSONForm: isJSONForm)
    }
}
