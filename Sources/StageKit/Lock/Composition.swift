import DockerfileSyntax

/// A composed Dockerfile with what it is made of: the stage templates it used and the images
/// it names. ``lockInputs()`` is what `stagebuild.lock` records and checks.
public struct Composition: Sendable {
    /// The Dockerfile text; images the lockfile holds are pinned when one was given.
    public internal(set) var text: String
    /// Every stage template the composition used (also those pulled in by `requires`), by name.
    public let templates: [StageTemplate]
    /// Every image the text names, in file order (`# syntax=` first).
    public internal(set) var images: [ImageMention]
    /// Where a line of the composed text comes from: a file as shown to the user and its line.
    public struct LineOrigin: Sendable, Hashable {
        /// The Stagefile or template, as messages show it.
        public var file: String
        /// The 1-based line there.
        public var line: Int
    }

    /// The origin of each line of ``text``, by 0-based line index; `nil` for the lines compose
    /// writes itself (header, provenance comments, blank lines between blocks).
    public internal(set) var lineOrigins: [LineOrigin?] = []

    /// What composition did that a reader of the parts would not expect, each at the line it is
    /// about: two templates in one build stage setting `USER`, `WORKDIR`, `ENTRYPOINT`, `CMD` or
    /// `SHELL`; a parameter shadowing a Stagefile `ARG`.
    public internal(set) var warnings: [CompositionError] = []

    /// The images left as written although a lockfile was given: the lockfile does not hold
    /// them (it is stale), or they are written through a variable.
    public internal(set) var unpinnedImages: [ImageMention] = []

    /// A composition.
    ///
    /// - Parameters:
    ///   - text: The composed Dockerfile.
    ///   - templates: The templates used.
    ///   - images: Every image the text names, in file order, at its position in `text`.
    init(text: String, templates: [StageTemplate], images: [ImageMention]) {
        self.text = text
        self.templates = templates
        self.images = images
    }

    /// What a lockfile records for this composition: each image reference once, and each
    /// template's content digest.
    ///
    /// - Returns: The inputs.
    /// - Throws: `CompositionError` for an image named through a variable or not a valid reference.
    public func lockInputs() throws(CompositionError) -> LockInputs {
        var references: [ImageReference] = []
        for mention in images { references.append(try mention.reference(at: source(of: mention))) }
        var digests: [String: Digest] = [:]
        for template in templates { digests[template.name] = template.contentDigest }
        return LockInputs(images: references, templates: digests)
    }

    /// Where a mention stands in the Stagefile or template it comes from, as the user shows it.
    func source(of mention: ImageMention) -> (file: String, location: SourceLocation)? {
        let index = mention.location.line - 1
        guard lineOrigins.indices.contains(index), let origin = lineOrigins[index] else { return nil }
        return (origin.file, SourceLocation(line: origin.line, column: mention.location.column))
    }

    /// Appends the lockfile's digest to every image it holds, in place in ``text``: one
    /// ``SourceEdit`` per image.
    mutating func pin(with lockfile: Lockfile) {
        var unpinned: [ImageMention] = []
        var edits: [SourceEdit] = []
        var mentionOfEdit: [SourceEdit: ImageMention] = [:]
        for mention in images {
            guard let reference = try? mention.reference() else {
                unpinned.append(mention)
                continue
            }
            if reference.digest != nil { continue }
            guard let entry = lockfile.images[mention.written] else {
                unpinned.append(mention)
                continue
            }
            let edit = SourceEdit(
                range: SourceRange(start: mention.location, length: mention.written.unicodeScalars.count),
                expected: mention.written, replacement: reference.pinned(to: entry.digest))
            edits.append(edit)
            mentionOfEdit[edit] = mention
        }
        let edited = SourceEdit.apply(edits, to: text)
        text = edited.text
        // An edit is skipped where the text at the position is not the reference (written with quotes, say).
        unpinned += edited.skipped.compactMap { mentionOfEdit[$0] }
        unpinnedImages = unpinned.sorted { $0.location < $1.location }
    }
}
