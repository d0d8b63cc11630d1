import DockerfileSyntax

/// One place where a composed Dockerfile names an image: the `# syntax=` frontend, a `FROM`,
/// a `COPY --from=IMAGE` or a `RUN --mount=…,from=IMAGE`. Build stage names, `scratch` and
/// stage indexes (`--from=0`) are not images and never become mentions.
public struct ImageMention: Sendable, Hashable {
    /// Where in an instruction the image is named.
    public enum Kind: String, Sendable, Hashable {
        /// The `# syntax=` parser directive: the BuildKit frontend image.
        case syntax = "# syntax="
        /// `FROM IMAGE`.
        case from = "FROM"
        /// `COPY --from=IMAGE`.
        case copyFrom = "COPY --from="
        /// `RUN --mount=…,from=IMAGE`.
        case mountFrom = "RUN --mount=from="

        /// The mention as a line shows it: `FROM debian:12`, `COPY --from=debian:12`.
        ///
        /// - Parameter reference: The image reference.
        func shown(_ reference: String) -> String {
            rawValue.hasSuffix("=") ? rawValue + reference : rawValue + " " + reference
        }
    }

    /// The reference as written, variables not expanded, e.g. `debian:bookworm-slim`.
    public var written: String
    /// The reference with variables expanded from `ARG` defaults and `ENV` values; `nil` when
    /// a variable has no value known before the build.
    public var expanded: String?
    /// Where it is named.
    public var kind: Kind
    /// The file the line comes from: the Stagefile as shown to the user, or a stage template's
    /// path relative to the Stagefile.
    public var origin: String
    /// Where the reference starts in the composed text.
    public var location: SourceLocation

    /// The image reference, parsed as Docker parses it.
    ///
    /// - Returns: The reference.
    /// - Throws: `CompositionError` in ``origin`` for a reference that uses a variable (a lock
    ///   pins references written out in full, so that the pinned text replaces them) or that
    ///   Docker would reject.
    public func reference() throws(CompositionError) -> ImageReference {
        try reference(at: nil)
    }

    /// The image reference, with errors at a position in the file the mention comes from.
    ///
    /// - Parameter source: The file and position of the mention as the user shows it, or `nil`
    ///   for ``origin`` without a position.
    /// - Returns: The reference.
    /// - Throws: As ``reference()``.
    func reference(at source: (file: String, location: SourceLocation)?) throws(CompositionError) -> ImageReference {
        let file = source?.file ?? origin
        guard expanded == written, !written.contains("$") else {
            let fix =
                expanded.map { "write the image itself (its default here is \($0): \(kind.shown($0)))" }
                ?? "write the image itself"
            throw CompositionError(
                "\(kind.shown(written)) names its image through a variable; stagebuild lock pins images written "
                    + "out in full, since a build argument could change a pinned image: \(fix)",
                file: file, at: source?.location)
        }
        do {
            return try ImageReference(parsing: written)
        } catch {
            throw CompositionError("\(kind.shown(written)): \(error.description)", file: file, at: source?.location)
        }
    }
}
