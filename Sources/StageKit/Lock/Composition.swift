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

        /// An origin.
        ///
        /// - Parameters:
        ///   - file: The file as messages show it.
        ///   - line: The 1-based line.
        public init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }

    /// The origin of each line of ``text``, by 0-based line index; `nil` for the lines compose
    /// writes itself (header, provenance comments, blank lines between blocks).
    public internal(set) var lineOrigins: [LineOrigin?] = []

    /// For each line compose rewrote (a base template's `FROM` with its alias, a `--platform`
    /// or a parameter's value in place), by 0-based line index: the composed column where the
    /// image starts and the column it starts at in the template. A column from the image on
    /// moves by their difference; one before it is the same in both.
    var rewrittenColumns: [Int: (composed: Int, source: Int)] = [:]

    /// Where a position of ``text`` stands in the Stagefile or template its line comes from.
    ///
    /// - Parameters:
    ///   - line: The 1-based composed line.
    ///   - column: The 1-based composed column.
    /// - Returns: The file as messages show it and the position there; `nil` for a line compose
    ///   wrote itself.
    public func source(line: Int, column: Int) -> (file: String, location: SourceLocation)? {
        let index = line - 1
        guard lineOrigins.indices.contains(index), let origin = lineOrigins[index] else { return nil }
        guard let shift = rewrittenColumns[index], column >= shift.composed else {
            return (origin.file, SourceLocation(line: origin.line, column: column))
        }
        return (origin.file, SourceLocation(line: origin.line, column: column - shift.composed + shift.source))
    }

    /// What composition did that a reader of the parts would not expect, each at the line it is
    /// about: two templates in one build stage setting `USER`, `WORKDIR`, `ENTRYPOINT`, `CMD` or
    /// `SHELL`; a parameter shadowing a Stagefile `ARG`.
    public internal(set) var warnings: [CompositionError] = []

    /// One build stage's apt packages: the pins of its `RUN`s (the Stagefile's lines of that
    /// stage and every template placed in it), the apt archives its templates declare (and
    /// those of the build stage it starts from), and where it adds apt sources no template
    /// declares.
    public struct PackageStage: Sendable {
        /// Its name: the alias, or its number from 1 (messages say `build stage NAME`).
        public var name: String
        /// Its base image as composed, when known.
        public var image: String?
        /// Its package pins, each at its position in the file that writes it.
        public var pins: [PackagePin]
        /// The apt archives it reads, as declared.
        public var archives: [AptArchive] = []
        /// The commands that add apt sources no template declares (a `sources.list` edit,
        /// `add-apt-repository`), with the file that holds each.
        public var sourceEdits: [(file: String, location: SourceLocation)] = []

        /// Creates a stage.
        ///
        /// - Parameters:
        ///   - name: Its name.
        ///   - image: Its base image.
        ///   - pins: Its package pins.
        public init(name: String, image: String?, pins: [PackagePin]) {
            self.name = name
            self.image = image
            self.pins = pins
        }
    }

    /// Each build stage's apt packages, in file order.
    public internal(set) var packageStages: [PackageStage] = []

    /// Every apt package pin of the composition, each written form once, in file order.
    public var packagePins: [PackagePin] {
        var seen: Set<String> = []
        return packageStages.flatMap(\.pins).filter { seen.insert($0.written).inserted }
    }

    /// The template parameters that hold a snapshot moment (`DEBIAN_SNAPSHOT`, …): the
    /// `snapshot` field of the archives its templates declare.
    public var snapshotParameters: [String] {
        var names: [String] = []
        for template in templates {
            for declaration in template.aptArchives {
                if let name = declaration.parameter(of: "snapshot"), !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// `apt-get install` operands whose name or version is a variable, with where they are:
    /// ``lockInputs()`` refuses them.
    var variablePackagePins: [(written: String, file: String, location: SourceLocation)] = []

    /// One parameter value the Stagefile gave a template, e.g. `debian`'s `DEBIAN_SNAPSHOT`.
    public struct ParameterBinding: Sendable, Hashable {
        /// The template's name.
        public var template: String
        /// The parameter's name.
        public var parameter: String
        /// The value as given, unquoted.
        public var value: String
        /// The Stagefile, as messages show it.
        public var file: String
        /// Where the Stagefile binds it.
        public var location: SourceLocation
    }

    /// Each parameter value the Stagefile gave, once per template placement, in order.
    public internal(set) var parameterBindings: [ParameterBinding] = []

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

    /// What a lockfile records for this composition: each image reference once, each package
    /// pin once, the snapshot moments the Stagefile gives, and each template's content digest.
    ///
    /// - Returns: The inputs.
    /// - Throws: `CompositionError` for an image or a package pin named through a variable,
    ///   an image that is not a valid reference, and for two different values of one snapshot
    ///   parameter or one that is no `YYYYMMDDTHHMMSSZ` time (a lock records one per parameter).
    ///
    /// - Parameters:
    ///   - architecture: The build's architecture when the lock is for one (`--architecture`).
    ///   - keyDigest: The SHA-256 (`sha256:…`) of a key file in the build context, by its path
    ///     as the template names it; `nil` when it cannot be read.
    public func lockInputs(
        architecture: String? = nil, keyDigest: (String) -> String? = { _ in nil }
    ) throws(CompositionError) -> LockInputs {
        if let pin = variablePackagePins.first {
            throw CompositionError(
                "apt-get install \(pin.written) names its package or version through a variable; stagebuild lock pins "
                    + "versions written out in full, since a build argument could change a locked package: write the version itself",
                file: pin.file, at: pin.location)
        }
        var references: [ImageReference] = []
        for mention in images { references.append(try mention.reference(at: source(of: mention))) }
        var digests: [String: Digest] = [:]
        for template in templates { digests[template.name] = template.contentDigest }
        var snapshots: [String: String] = [:]
        for parameter in snapshotParameters { snapshots[parameter] = try boundValue(of: parameter) }
        // Each pin's archives: those of every build stage that installs it.
        var archives: [String: Set<String>] = [:]
        for stage in packageStages {
            let text = stage.archives.map { $0.canonical(keyDigest: keyDigest) }.joined(separator: " + ")
            for pin in stage.pins { archives[pin.written, default: []].insert(text) }
        }
        var inputs = LockInputs(
            images: references, templates: digests, packages: packagePins.map(\.written), snapshots: snapshots)
        inputs.packageArchives = archives.mapValues { $0.sorted(by: LockInputs.precedes).joined(separator: " | ") }
        inputs.architecture = architecture
        return inputs
    }

    /// The one value the Stagefile gives a parameter, wherever it binds it; `nil` when it gives
    /// none or an empty one.
    ///
    /// - Parameter parameter: e.g. `DEBIAN_SNAPSHOT`.
    /// - Throws: `CompositionError` when it gives two values, or a snapshot parameter's value
    ///   that is no snapshot time.
    public func boundValue(of parameter: String) throws(CompositionError) -> String? {
        let bindings = parameterBindings.filter { $0.parameter == parameter && !$0.value.isEmpty }
        guard let first = bindings.first else { return nil }
        if let other = bindings.first(where: { $0.value != first.value }) {
            throw CompositionError(
                "\(parameter) is \(other.value) here but \(first.value) at line \(first.location.line); "
                    + "stagebuild lock records one value of it, so give every build stage the same value",
                file: other.file, at: other.location)
        }
        if snapshotParameters.contains(parameter) && !AptArchive.isSnapshotTime(first.value) {
            throw CompositionError(
                "\(parameter)=\(first.value) is not a snapshot time YYYYMMDDTHHMMSSZ (UTC), e.g. 20250520T000000Z",
                file: first.file, at: first.location)
        }
        return first.value
    }

    /// Where a mention stands in the Stagefile or template it comes from, as the user shows it.
    ///
    /// - Parameter mention: One of ``images``.
    /// - Returns: The file as messages show it and the position there; `nil` for a line
    ///   compose wrote itself.
    public func source(of mention: ImageMention) -> (file: String, location: SourceLocation)? {
        source(line: mention.location.line, column: mention.location.column)
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
