import JSONReader
import Serialization

/// Two builds of one image compared from the top: the manifest, each field of the
/// configuration (its history included), then each layer by its diff ID, and a layer whose
/// diff IDs differ entry by entry (``LayerComparison``).
public struct ImageComparison: Sendable {
    /// A configuration field whose values differ.
    public struct FieldDifference: Sendable, Hashable {
        /// Its path in the configuration, e.g. `history[3].created` or `config.Env[1]`.
        public var path: String
        /// The first build's value as compact JSON; `nil` when absent.
        public var first: String?
        /// The second build's value as compact JSON; `nil` when absent.
        public var second: String?
    }

    /// What one layer position holds in the two builds.
    public enum LayerOutcome: Sendable {
        /// The same diff ID and the same blob.
        case identical
        /// The same diff ID (the same tar stream) in blobs compressed differently.
        case compressionOnly(first: String, second: String)
        /// Different tar streams.
        case differs(LayerComparison)
        /// Only the first build has a layer here.
        case onlyInFirst
        /// Only the second build has a layer here.
        case onlyInSecond
    }

    /// The first build's image.
    public var first: OCIImage
    /// The second build's image.
    public var second: OCIImage
    /// The configuration fields that differ.
    public var fields: [FieldDifference]
    /// Each layer position, bottom first.
    public var layers: [LayerOutcome]

    /// Whether the two builds are the same image: the same image ID (configuration digest),
    /// which covers every layer's diff ID and the history. Their blobs may still be compressed
    /// differently (``LayerOutcome/compressionOnly(first:second:)``): that is the export's, not the build's.
    public var identical: Bool { first.configDigest == second.configDigest }

    /// Compares two images.
    ///
    /// - Parameters:
    ///   - first: The first build's image.
    ///   - second: The second build's image.
    ///   - progress: Called before each layer whose tar streams are read, with its 0-based index.
    /// - Throws: `VerifyError` when a layer cannot be read.
    public init(first: OCIImage, second: OCIImage, progress: (Int) -> Void = { _ in }) throws(VerifyError) {
        self.first = first
        self.second = second
        var fields: [FieldDifference] = []
        Self.compare(first.configuration, second.configuration, at: "", into: &fields)
        self.fields = fields
        var layers: [LayerOutcome] = []
        for index in 0..<max(first.layers.count, second.layers.count) {
            guard index < first.layers.count else {
                layers.append(.onlyInSecond)
                continue
            }
            guard index < second.layers.count else {
                layers.append(.onlyInFirst)
                continue
            }
            let (a, b) = (first.layers[index], second.layers[index])
            if a.diffID == b.diffID {
                layers.append(a.digest == b.digest ? .identical : .compressionOnly(first: a.mediaType, second: b.mediaType))
            } else {
                progress(index)
                layers.append(.differs(try LayerComparison(first: a.path, second: b.path)))
            }
        }
        self.layers = layers
    }

    /// Walks two JSON values side by side, recording each leaf or shape that differs.
    static func compare(_ a: JSONValue?, _ b: JSONValue?, at path: String, into differences: inout [FieldDifference]) {
        switch (a, b) {
        case (.object(let left)?, .object(let right)?):
            var names = left.map(\.0)
            names += right.map(\.0).filter { name in !names.contains(name) }
            for name in names {
                let key = path.isEmpty ? name : path + "." + name
                compare(a?[member: name], b?[member: name], at: key, into: &differences)
            }
        case (.array(let left)?, .array(let right)?):
            for index in 0..<max(left.count, right.count) {
                compare(
                    index < left.count ? left[index] : nil, index < right.count ? right[index] : nil,
                    at: "\(path)[\(index)]", into: &differences)
            }
        default:
            let shown = (a?.text(layout: .compact), b?.text(layout: .compact))
            if shown.0 != shown.1 { differences.append(FieldDifference(path: path, first: shown.0, second: shown.1)) }
        }
    }
}
