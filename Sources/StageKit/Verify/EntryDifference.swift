import Archives

/// How one path of a layer differs between two builds: present in one only, or present in
/// both with some aspects different.
public struct EntryDifference: Sendable {
    /// One aspect of an entry two builds can write differently.
    public enum Aspect: String, Sendable, Hashable, CaseIterable {
        case type, permissions, owner, modificationTime, size, content, linkTarget, extendedAttributes
    }

    /// The path, as the layer's tar stream writes it (no leading `/`).
    public var path: String
    /// The entry in the first build's layer; `nil` when only the second has it.
    public var first: TarEntry?
    /// The entry in the second build's layer; `nil` when only the first has it.
    public var second: TarEntry?
    /// The aspects that differ, in ``Aspect``'s order; empty when the path is in one only.
    public var aspects: [Aspect]

    /// Compares two entries of one path.
    ///
    /// - Parameters:
    ///   - first: The first build's entry.
    ///   - second: The second build's entry.
    /// - Returns: Their difference, or `nil` when every aspect is the same.
    public static func between(_ first: TarEntry, _ second: TarEntry) -> EntryDifference? {
        var aspects: [Aspect] = []
        if first.type != second.type { aspects.append(.type) }
        if first.permissions != second.permissions { aspects.append(.permissions) }
        if first.userID != second.userID || first.groupID != second.groupID { aspects.append(.owner) }
        if first.modificationSeconds != second.modificationSeconds
            || first.modificationNanoseconds != second.modificationNanoseconds
        {
            aspects.append(.modificationTime)
        }
        if first.size != second.size { aspects.append(.size) }
        if first.contentDigest != second.contentDigest { aspects.append(.content) }
        if first.linkTarget != second.linkTarget { aspects.append(.linkTarget) }
        if first.extendedAttributes != second.extendedAttributes { aspects.append(.extendedAttributes) }
        guard !aspects.isEmpty else { return nil }
        return EntryDifference(path: first.path, first: first, second: second, aspects: aspects)
    }

    /// Whether only the entries' times differ.
    public var onlyTimesDiffer: Bool { aspects == [.modificationTime] }
}
