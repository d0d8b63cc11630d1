import DockerfileSyntax
import Serialization

// What a finished composition tells besides its text: the images it names, each build
// stage's package pins, where each composed line comes from.
extension CompositionSession {
    /// Every image the composed text names, in file order, read from the parts' own trees
    /// (BuildKit's rules for FROM, COPY --from and RUN --mount from=, as lint reads them), at
    /// their composed positions: the composed text is never parsed again.
    func imageMentions() -> [ImageMention] {
        var uses: [Composition.LineOrigin: [DockerfileDocument.ImageUse]] = [:]
        func collect(_ tree: DockerfileSyntaxTree, file: String, skippingFrom: Bool) {
            for use in DockerfileDocument(tree, readsRunScripts: false).imageUses(includingUnexpanded: true) {
                if skippingFrom, case .from = use.origin { continue }
                uses[Composition.LineOrigin(file: file, line: use.location.line), default: []].append(use)
            }
        }
        collect(stagefile.syntax, file: stagefile.displayPath, skippingFrom: false)
        // A base template's FROM is written anew; its image is taken where it is written.
        for template in templates.values {
            collect(template.syntax, file: composer.catalog.display(template.path), skippingFrom: true)
        }
        var mentions: [ImageMention] = []
        if let syntax {
            let location = SourceLocation(line: 1, column: "# syntax=".unicodeScalars.count + 1)
            mentions.append(
                ImageMention(
                    written: syntax.value, expanded: syntax.value, kind: .syntax, origin: stagefile.displayPath,
                    location: location))
        }
        for (index, blockIndex, line) in composedLines() {
            let number = index + 1
            // `scratch` is no image (BuildKit's empty base), as lint's image uses read it.
            if let image = line.fromImage, image.written.lowercased() != "scratch" {
                mentions.append(
                    ImageMention(
                        written: image.written, expanded: image.written, kind: .from, origin: blockOrigins[blockIndex],
                        location: SourceLocation(line: number, column: image.column)))
            }
            guard let origin = line.origin, let found = uses[origin] else { continue }
            for use in found {
                let kind: ImageMention.Kind
                switch use.origin {
                case .from: kind = .from
                case .copyFrom: kind = .copyFrom
                case .mountFrom: kind = .mountFrom
                }
                mentions.append(
                    ImageMention(
                        written: use.written, expanded: use.isExpanded ? use.reference : nil, kind: kind,
                        origin: blockOrigins[blockIndex], location: SourceLocation(line: number, column: use.location.column))
                )
            }
        }
        return mentions
    }

    /// Each build stage's apt package pins (the Stagefile's lines of that stage and every
    /// template placed in it, each part read once), the apt archives its templates declare
    /// (and those of the build stage it starts from), and where it adds apt sources that no
    /// template declares; with the pins written through a variable, which lock refuses.
    ///
    /// - Throws: `CompositionError` for an archive declaration whose values make no archive.
    func packageStages() throws(CompositionError) -> (
        stages: [Composition.PackageStage], variable: [(written: String, file: String, location: SourceLocation)]
    ) {
        let stagefilePath = Paths.absolute(composer.stagefileName, from: composer.stagefileDirectory)
        let stagefileDocument = DockerfileDocument(stagefile.syntax)
        let stagefileParts = stagefileDocument.packagePins(file: stagefile.displayPath, path: stagefilePath)
        let stagefileEdits = stagefileDocument.aptSourceEdits()
        var variable = stagefileParts.variable
        var templatePins: [String: [PackagePin]] = [:]
        var templateEdits: [String: [SourceLocation]] = [:]
        for template in templates.values.sorted(by: { $0.name < $1.name }) {
            let document = DockerfileDocument(template.syntax)
            let part = document.packagePins(file: composer.catalog.display(template.path), path: template.path)
            templatePins[template.name] = part.pins
            variable += part.variable
            templateEdits[template.name] = document.aptSourceEdits()
        }
        var stages: [Composition.PackageStage] = []
        var byAlias: [String: Int] = [:]
        for (index, record) in stageRecords.enumerated() {
            let end = index + 1 < stageRecords.count ? stageRecords[index + 1].stagefileStart : Int.max
            let inStage = { (line: Int) in line >= record.stagefileStart && line < end }
            var stage = Composition.PackageStage(
                name: record.alias ?? "\(index + 1)", image: record.image,
                pins: stagefileParts.pins.filter { inStage($0.location.line) })
            stage.sourceEdits = stagefileEdits.filter { inStage($0.line) }.map { (stagefile.displayPath, $0) }
            if let image = record.image?.lowercased(), let parent = byAlias[image] {
                stage.archives = stages[parent].archives
                stage.sourceEdits = stages[parent].sourceEdits + stage.sourceEdits
            }
            for placement in record.placements {
                let template = placement.template
                let file = composer.catalog.display(template.path)
                stage.pins += templatePins[template.name] ?? []
                if template.aptArchives.isEmpty {
                    stage.sourceEdits += (templateEdits[template.name] ?? []).map { (file, $0) }
                }
                for declaration in template.aptArchives {
                    do {
                        var archive = try declaration.archive(values: placement.values)
                        archive.declaredBy =
                            "stage template '\(template.name)' at \(stagefile.displayPath):\(placement.location.line):"
                            + "\(placement.location.column)"
                        stage.archives.append(archive)
                    } catch {
                        throw CompositionError(
                            "stage template '\(template.name)' declares an apt archive (\(file):\(declaration.line)) that "
                                + "these values do not make: \(error.reason)", file: stagefile.displayPath, at: placement.location
                        )
                    }
                }
            }
            if let alias = record.alias { byAlias[alias.lowercased()] = stages.count }
            stages.append(stage)
        }
        return (stages, variable)
    }

    /// The composed and the template's column of the image on each rewritten `FROM` line, by
    /// 0-based composed line index.
    func rewrittenColumns() -> [Int: (composed: Int, source: Int)] {
        var columns: [Int: (composed: Int, source: Int)] = [:]
        for (index, _, line) in composedLines() {
            if let image = line.fromImage { columns[index] = (image.column, image.sourceColumn) }
        }
        return columns
    }

    /// Each line of the blocks with its 0-based index in the composed text (after the header,
    /// one blank line between two blocks) and the index of its block.
    func composedLines() -> [(index: Int, block: Int, line: ComposedLine)] {
        var lines: [(index: Int, block: Int, line: ComposedLine)] = []
        var index = headerLineCount
        for (blockIndex, block) in blocks.enumerated() {
            if blockIndex > 0 { index += 1 }
            for line in block {
                lines.append((index, blockIndex, line))
                index += 1
            }
        }
        return lines
    }

    /// Where each line of the composed text comes from, in order (the header's lines and the
    /// provenance comments come from no file).
    func lineOrigins() -> [Composition.LineOrigin?] {
        let headerLines = headerLineCount
        var result = [Composition.LineOrigin?](repeating: nil, count: headerLines)
        for (index, block) in blocks.enumerated() {
            if index > 0 { result.append(nil) }
            result += block.map(\.origin)
        }
        return result
    }
}
