import DockerfileSyntax

extension DockerfileDocument {
    /// An image the file names, as `[REGISTRY/]NAME[:TAG][@DIGEST]`.
    struct ImageUse: Sendable {
        /// Where the image is named.
        enum Origin: Sendable {
            /// `FROM IMAGE`.
            case from
            /// `COPY --from=IMAGE`.
            case copyFrom
            /// `RUN --mount=…,from=IMAGE`.
            case mountFrom
        }

        /// The reference with known variables expanded; the text as written when a variable
        /// has no known value (see `isExpanded`).
        var reference: String
        /// The reference as written in the file, variables not expanded.
        var written: String
        /// False when a variable in `written` has no known value, so `reference` is not the image.
        var isExpanded = true
        /// Where it is named.
        var origin: Origin
        /// Where the reference starts in the file.
        var location: SourceLocation

        /// The part after `@`, e.g. `sha256:…`; `nil` without one.
        var digest: String? {
            guard let at = reference.firstIndex(of: "@") else { return nil }
            return String(reference[reference.index(after: at)...])
        }

        /// The tag: the part after the last `:` that follows the last `/` (a registry port is
        /// not a tag); `nil` without one.
        var tag: String? {
            let name = reference.prefix { $0 != "@" }
            guard let colon = name.lastIndex(of: ":") else { return nil }
            if let slash = name.lastIndex(of: "/"), slash > colon { return nil }
            return String(name[name.index(after: colon)...])
        }

        /// Whether the digest is `sha256:` + 64 hex digits or `sha512:` + 128 (OCI image spec, "Digests").
        var isPinnedByDigest: Bool {
            guard let digest else { return false }
            let parts = digest.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let length = ["sha256": 64, "sha512": 128][String(parts[0])] else { return false }
            return parts[1].count == length && parts[1].allSatisfy(\.isHexDigit)
        }
    }

    /// Every image the file names: `FROM`, `COPY --from` and `RUN --mount=…,from=`, with
    /// known variables expanded. Build stage names, `scratch`, `stage:NAME` and references
    /// whose variables have no known value are left out.
    var images: [ImageUse] { imageUses(includingUnexpanded: false) }

    /// Every image the file names, as `images`, and with `includingUnexpanded` also the
    /// references whose variables have no known value (`isExpanded` false), which `lint`
    /// cannot judge but `stagebuild lock` must refuse.
    ///
    /// - Parameter includingUnexpanded: Whether to keep references that cannot be expanded.
    func imageUses(includingUnexpanded: Bool) -> [ImageUse] {
        // A file without FROM is a layer template: a `--from` word that could be a stage name
        // may name a build stage of the Stagefile that uses the template.
        let standalone = !hasFrom
        let names = stageNames
        var uses: [ImageUse] = []
        var earlierStages: Set<String> = []
        for stage in stages {
            if let from = stage.from, let base = from.instruction.asFrom?.base, !stage.isTemplateReference {
                // BuildKit expands a FROM image with the global arguments, quotes removed.
                let expanded = expandGlobal(unquoted(base.text))
                let reference = expanded ?? base.text
                if (expanded != nil || includingUnexpanded) && reference.lowercased() != "scratch"
                    && !earlierStages.contains(reference.lowercased())
                {
                    uses.append(
                        ImageUse(
                            reference: reference, written: base.text, isExpanded: expanded != nil, origin: .from,
                            location: from.instruction.location(of: base)))
                }
            }
            if let alias = stage.alias { earlierStages.insert(alias) }
            for index in stage.entryIndices {
                for (origin, value, location) in Self.references(in: entries[index]) {
                    let expanded = expand(value, before: index)
                    guard expanded != nil || includingUnexpanded else { continue }
                    let reference = expanded ?? value
                    let lowered = reference.lowercased()
                    if names.contains(lowered) || lowered.allSatisfy(\.isNumber) { continue }
                    if standalone && !lowered.contains(where: { "/:@".contains($0) }) { continue }
                    uses.append(
                        ImageUse(
                            reference: reference, written: value, isExpanded: expanded != nil, origin: origin, location: location)
                    )
                }
            }
        }
        return uses
    }

    /// The `--from` values of a `COPY` and the `from=` mount options of a `RUN`.
    private static func references(in entry: Entry) -> [(ImageUse.Origin, String, SourceLocation)] {
        let instruction = entry.instruction
        // Most instructions have no flags: those are not read further.
        guard !instruction.flags.isEmpty else { return [] }
        if entry.keyword == .copy, let from = instruction.flagWord("from"), !from.text.isEmpty {
            return [(.copyFrom, from.text, instruction.location(of: from))]
        }
        guard entry.keyword == .run else { return [] }
        return (instruction.asRun?.mounts ?? []).compactMap { mount in
            mount.from.flatMap { $0.text.isEmpty ? nil : (.mountFrom, $0.text, instruction.location(of: $0)) }
        }
    }
}
