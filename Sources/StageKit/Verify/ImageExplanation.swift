/// Two builds of one build stage compared and explained: each differing configuration field
/// and layer with the instruction that made it, its template line and the cause of each
/// difference (``ReproducibilityCause``).
public struct ImageExplanation: Sendable {
    /// The paths of a layer that differ for one cause.
    public struct CauseGroup: Sendable {
        /// The cause.
        public var cause: ReproducibilityCause
        /// The paths, in the order the layers hold them.
        public var differences: [EntryDifference]
    }

    /// A layer that differs.
    public struct LayerFinding: Sendable {
        /// Its position, bottom first, from 0.
        public var index: Int
        /// The instruction that made it; `nil` for a base image's layer.
        public var step: BuildStep?
        /// What differs in it: `differs` with its entries, `compressionOnly`, or a layer one build lacks.
        public var outcome: ImageComparison.LayerOutcome
        /// Its differing paths, by cause, in the catalog's order.
        public var causes: [CauseGroup]
        /// The packages installed at other versions in it (dpkg's status database).
        public var packageChanges: [PackageVersions.Change]
    }

    /// A configuration field that differs, with its cause.
    public struct FieldFinding: Sendable {
        /// The field.
        public var field: ImageComparison.FieldDifference
        /// Why it differs.
        public var cause: ReproducibilityCause
    }

    /// The build stage's name as the Dockerfile writes it.
    public var stage: String
    /// The two images' comparison.
    public var comparison: ImageComparison
    /// The base image the stage starts from, as written (pinned by the lock).
    public var baseImage: String?
    /// Whether the image's history matched the stage's instructions, so layers are named by them.
    public var attributed: Bool
    /// The configuration fields that differ.
    public var fields: [FieldFinding]
    /// The layers that differ.
    public var layers: [LayerFinding]

    /// Whether both builds made the same image.
    public var reproducible: Bool { comparison.identical }

    /// The cause of a configuration field's difference, from its path (OCI image spec,
    /// "Image Configuration"; buildah's history `comment` names the image of the step before).
    static func cause(ofField path: String) -> ReproducibilityCause {
        let history = path.hasPrefix("history[")
        if path == "created" || history && path.hasSuffix("].created") { return .configurationTime }
        if path.hasPrefix("rootfs.diff_ids") || history && (path.hasSuffix("].comment") || path.hasSuffix("].created_by")) {
            return .followsLayers
        }
        // Docker's legacy builder records its build container (its ID is the host name) and the
        // image the last step started from (its ID follows from the layers).
        if path == "config.Hostname" || path == "container" || path == "container_config.Hostname" { return .hostName }
        if path == "config.Image" || path == "container_config.Image" { return .followsLayers }
        return .unexplained
    }

    /// Explains a comparison.
    ///
    /// - Parameters:
    ///   - comparison: The two images compared.
    ///   - stage: The build stage's name.
    ///   - attribution: Which instruction made each layer.
    ///   - conditions: How the second build's conditions differed.
    public init(comparison: ImageComparison, stage: String, attribution: LayerAttribution, conditions: BuildConditions) {
        self.comparison = comparison
        self.stage = stage
        baseImage = attribution.baseImage
        attributed = attribution.matches
        fields = comparison.fields.map { field in
            FieldFinding(field: field, cause: Self.cause(ofField: field.path))
        }
        var layers: [LayerFinding] = []
        for (index, outcome) in comparison.layers.enumerated() {
            let step = index < attribution.stepOfLayer.count ? attribution.stepOfLayer[index].map { attribution.steps[$0] } : nil
            switch outcome {
            case .identical:
                continue
            case .differs(let layer):
                let status = layer.differences.first { $0.path == PackageVersions.statusPath }
                let changes =
                    status.flatMap { difference -> [PackageVersions.Change]? in
                        guard let first = difference.first, let second = difference.second else { return nil }
                        return PackageVersions(status: first.contentPrefix).changes(
                            to: PackageVersions(status: second.contentPrefix))
                    } ?? []
                var groups: [ReproducibilityCause: [EntryDifference]] = [:]
                for difference in layer.differences {
                    let cause = DifferenceCauses.cause(
                        of: difference, instruction: step?.instruction, packagesChanged: !changes.isEmpty, conditions: conditions)
                    groups[cause, default: []].append(difference)
                }
                var causes = ReproducibilityCause.catalog.compactMap { cause in
                    groups[cause].map { CauseGroup(cause: cause, differences: $0) }
                }
                if layer.orderDiffers { causes.insert(CauseGroup(cause: .entryOrder, differences: []), at: 0) }
                layers.append(
                    LayerFinding(index: index, step: step, outcome: outcome, causes: causes, packageChanges: changes))
            case .compressionOnly, .onlyInFirst, .onlyInSecond:
                layers.append(LayerFinding(index: index, step: step, outcome: outcome, causes: [], packageChanges: []))
            }
        }
        self.layers = layers
    }
}
