import Archives

/// Two tar streams of one layer compared entry by entry as they stream, so memory holds only
/// the entries one stream has reached and the other not yet (the layers' common order keeps
/// that small): paths in one only, each aspect of the entries of a path, and whether the
/// entries they share come in the same order.
public struct LayerComparison: Sendable {
    /// The paths that differ, in the order they were found.
    public var differences: [EntryDifference] = []
    /// Whether the entries both layers have come in another order.
    public var orderDiffers = false
    /// How many entries each layer has.
    public var entryCounts = (first: 0, second: 0)
    /// Each stream's compression as libarchive names it.
    public var compressions = (first: "none", second: "none")

    /// The bytes of a file's content kept for explaining a difference: the start of any
    /// file, and all of dpkg's status database (read for package versions), in bytes.
    public static func prefixLength(of path: String) -> Int {
        path == PackageVersions.statusPath ? 64 << 20 : 16 << 10
    }

    /// Compares the tar streams of two layer blobs.
    ///
    /// - Parameters:
    ///   - first: The first build's blob, any compression.
    ///   - second: The second build's blob.
    /// - Throws: `VerifyError` when a blob is not a readable tar stream.
    public init(first: String, second: String) throws(VerifyError) {
        let readers: (TarReader, TarReader)
        do {
            readers = (try TarReader(path: first), try TarReader(path: second))
        } catch {
            throw VerifyError("cannot read a layer: \(error.reason)")
        }
        // Entries one stream has passed and the other not yet, with the ordinal they came at.
        var pending: [[String: (entry: TarEntry, ordinal: Int)]] = [[:], [:]]
        // The ordinal of the last entry matched on each side: matched in the order pairs
        // complete, the ordinals rise on both sides exactly when the shared order is the same.
        var lastMatched = [-1, -1]
        var ordinals = [0, 0]
        func matched(_ entries: (TarEntry, TarEntry), ordinals pair: (Int, Int)) {
            if pair.0 < lastMatched[0] || pair.1 < lastMatched[1] { orderDiffers = true }
            lastMatched = [pair.0, pair.1]
            if let difference = EntryDifference.between(entries.0, entries.1) { differences.append(difference) }
        }
        func arrived(_ entry: TarEntry, side: Int) {
            let other = 1 - side
            let ordinal = ordinals[side]
            ordinals[side] += 1
            if let waiting = pending[other].removeValue(forKey: entry.path) {
                if side == 0 {
                    matched((entry, waiting.entry), ordinals: (ordinal, waiting.ordinal))
                } else {
                    matched((waiting.entry, entry), ordinals: (waiting.ordinal, ordinal))
                }
            } else {
                pending[side][entry.path] = (entry, ordinal)
            }
        }
        do {
            var ended = (false, false)
            while !ended.0 || !ended.1 {
                let a = ended.0 ? nil : try readers.0.next(keepingPrefix: Self.prefixLength(of:))
                let b = ended.1 ? nil : try readers.1.next(keepingPrefix: Self.prefixLength(of:))
                ended = (a == nil, b == nil)
                if let a, let b, a.path == b.path, pending[0].isEmpty, pending[1].isEmpty {
                    matched((a, b), ordinals: (ordinals[0], ordinals[1]))
                    ordinals[0] += 1
                    ordinals[1] += 1
                    continue
                }
                if let a { arrived(a, side: 0) }
                if let b { arrived(b, side: 1) }
            }
        } catch {
            throw VerifyError("cannot read a layer: \(error.reason)")
        }
        entryCounts = (ordinals[0], ordinals[1])
        compressions = (readers.0.compression, readers.1.compression)
        for (path, waiting) in pending[0].sorted(by: { $0.value.ordinal < $1.value.ordinal }) {
            differences.append(EntryDifference(path: path, first: waiting.entry, second: nil, aspects: []))
        }
        for (path, waiting) in pending[1].sorted(by: { $0.value.ordinal < $1.value.ordinal }) {
            differences.append(EntryDifference(path: path, first: nil, second: waiting.entry, aspects: []))
        }
    }
}
