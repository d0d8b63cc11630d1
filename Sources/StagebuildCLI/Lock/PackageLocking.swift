import DockerfileSyntax
import StageKit

/// The apt side of `stagebuild lock`: which snapshot moment each snapshot parameter takes, the
/// resolver with the run's transport and keyrings, and `--update-packages`.
enum PackageLocking {
    /// The snapshot moment of each snapshot parameter the composition's templates declare
    /// (`DEBIAN_SNAPSHOT`, `UBUNTU_SNAPSHOT`): the Stagefile's value, else `--snapshot` (`now`
    /// or a time), else the lockfile's, else none (the live archive).
    ///
    /// - Parameters:
    ///   - composition: The composition as the Stagefile says it.
    ///   - inputs: Its lock inputs (the Stagefile's snapshot values).
    ///   - asked: `--snapshot`, if given.
    ///   - locked: The snapshots the existing lockfile records.
    ///   - now: The time now, as a snapshot time.
    /// - Returns: The moments by parameter.
    /// - Throws: `CommandFailure` (64) when `--snapshot` would move a value the Stagefile gives.
    static func snapshots(
        for composition: Composition, inputs: LockInputs, asked: String?, locked: [String: String], now: String
    ) throws(CommandFailure) -> [String: String] {
        var result: [String: String] = [:]
        let time = asked.map { $0 == "now" ? now : $0 }
        for parameter in composition.snapshotParameters {
            if let given = inputs.snapshots[parameter] {
                if let time, let asked, time != given {
                    throw CommandFailure.usage(
                        "the Stagefile gives \(parameter)=\(given); --snapshot \(asked) cannot move it (remove it from the Stagefile)"
                    )
                }
                result[parameter] = given
            } else if let time {
                result[parameter] = time
            } else if let recorded = locked[parameter] {
                result[parameter] = recorded
            }
        }
        return result
    }

    /// The resolver of a run: the libcurl transport, gpgv with each archive's keyring (a key in
    /// the build context is read from the Stagefile's folder), the build's architecture.
    static func resolver(
        transport: any RegistryTransport, buildContext: String, fileSystem: any FileSystem, deadline: Double,
        architecture: String
    ) -> AptPackageResolver {
        AptPackageResolver(
            transport: transport,
            signatureCheck: GpgvSignatureCheck(buildContext: buildContext, fileSystem: fileSystem, deadline: deadline),
            architecture: architecture)
    }

    /// Checks, before any request, that every key a template names in the build context can be
    /// read: a missing key is the project's mistake, not the archive's.
    ///
    /// - Throws: `CommandFailure` (74) naming the key and the template placement that names it.
    static func checkKeys(
        of stages: [Composition.PackageStage], in buildContext: String, context: CommandContext
    ) throws(CommandFailure) {
        for archive in stages.filter({ !$0.pins.isEmpty }).flatMap(\.archives) {
            guard case .buildContext(let relative) = archive.keyring else { continue }
            do {
                _ = try context.fileSystem.readBytes(at: Paths.absolute(relative, from: buildContext))
            } catch {
                throw CommandFailure.error(
                    .ioError,
                    "cannot read the key \(relative) that \(archive.declaredBy) names in the build context: \(error.reason)")
            }
        }
    }

    /// One line per build stage that read archives: `packages of app from Debian bookworm at
    /// snapshot 20250520T000000Z`.
    static func archiveLines(_ stages: [Composition.PackageStage]) -> [String] {
        var lines: [String] = []
        for stage in stages where !stage.pins.isEmpty && !stage.archives.isEmpty {
            let line =
                "packages of build stage \(stage.name) from \(stage.archives.map(\.description).joined(separator: " and "))"
            if !lines.contains(line) { lines.append(line) }
        }
        return lines
    }

    /// `--update-packages`: moves every snapshot parameter to `time` and rewrites each package
    /// pin, where the Stagefile or template writes it, to the newest version its build stage's
    /// archives hold there (one `SourceEdit` per pin: every other byte stays), and the
    /// Stagefile's own snapshot values; prints a table of old and new versions.
    ///
    /// - Parameters:
    ///   - input: The Stagefile and its composer.
    ///   - time: The snapshot moment to move to.
    ///   - resolver: Reads the archives.
    ///   - context: Files and output.
    /// - Throws: `CommandFailure`, reported on stderr where it happened.
    static func updatePackages(
        _ input: StagefileInput, to time: String, resolver: AptPackageResolver, context: CommandContext
    ) throws(CommandFailure) {
        let composition: Composition
        do {
            composition = try input.composer.composition(of: input.stagefile)
        } catch {
            throw CommandFailure(error)
        }
        var newest: [String: ResolvedPackage] = [:]
        var stagesRead: [Composition.PackageStage] = []
        for var stage in composition.packageStages where !stage.pins.isEmpty && !stage.archives.isEmpty {
            for index in stage.archives.indices where stage.archives[index].snapshotParameter != nil {
                stage.archives[index].snapshot = time
            }
            do {
                for (written, package) in try resolver.newest(for: stage.pins, in: stage.archives) where newest[written] == nil {
                    newest[written] = package
                }
            } catch {
                throw CommandFailure.error(.unavailable, error.message)
            }
            stagesRead.append(stage)
        }
        var edits: [String: [SourceEdit]] = [:]
        var rows: [(pin: PackagePin, new: String, suite: String)] = []
        var problems: [String] = []
        for stage in stagesRead {
            for pin in stage.pins where !rows.contains(where: { $0.pin.written == pin.written }) {
                let place = "\(pin.file):\(pin.location.line):\(pin.location.column)"
                guard let found = newest[pin.written] else {
                    problems.append(
                        "\(place): \(stage.archives.map(\.description).joined(separator: " and ")) has no package \(pin.name) "
                            + "for \(pin.architecture ?? resolver.architecture)")
                    continue
                }
                rows.append((pin, found.entry.version, found.suite))
                guard found.entry.version != pin.version else { continue }
                guard !pin.isQuoted else {
                    problems.append("\(place): \(pin.written) is quoted or escaped; write it bare so that it can be rewritten")
                    continue
                }
                let name = pin.name + (pin.architecture.map { ":" + $0 } ?? "")
                edits[pin.path, default: []].append(
                    SourceEdit(
                        range: SourceRange(start: pin.location, length: pin.written.unicodeScalars.count),
                        expected: pin.written, replacement: "\(name)=\(found.entry.version)"))
            }
        }
        let parameters = Set(composition.snapshotParameters)
        for binding in composition.parameterBindings where parameters.contains(binding.parameter) && binding.value != time {
            let written = "\(binding.parameter)=\(binding.value)"
            edits[input.path, default: []].append(
                SourceEdit(
                    range: SourceRange(start: binding.location, length: written.unicodeScalars.count), expected: written,
                    replacement: "\(binding.parameter)=\(time)"))
        }
        guard problems.isEmpty else {
            throw CommandFailure.errors(.dataError, problems, detail: "nothing was rewritten.\n")
        }
        try rewrite(edits, input: input, context: context)
        context.standardOutput.write("packages at snapshot \(time):\n")
        let width = rows.map { $0.pin.name.count }.max() ?? 0
        let oldWidth = rows.map { $0.pin.version.count }.max() ?? 0
        for row in rows {
            let name = row.pin.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let old = row.pin.version.padding(toLength: oldWidth, withPad: " ", startingAt: 0)
            let change = row.new == row.pin.version ? "(unchanged)" : "-> \(row.new)"
            context.standardOutput.write(
                "  \(name)  \(old)  \(change)  \(row.suite)  \(row.pin.file):\(row.pin.location.line)\n")
        }
    }

    /// Applies every file's edits, each file written atomically, nothing written unless every
    /// edit applies.
    private static func rewrite(
        _ edits: [String: [SourceEdit]], input: StagefileInput, context: CommandContext
    ) throws(CommandFailure) {
        var rewritten: [(path: String, text: String)] = []
        for path in edits.keys.sorted() {
            guard let fileEdits = edits[path] else { continue }
            let text: String
            do {
                text = try context.fileSystem.readText(at: path)
            } catch {
                throw CommandFailure.unreadable(input.lock.display(path), error)
            }
            // The positions count as the parser counted them (after a byte order mark).
            guard let tree = try? DockerfileParser.parse(text) else {
                throw CommandFailure.error(
                    .dataError, "\(input.lock.display(path)) changed while lock read it; nothing was rewritten")
            }
            let edited = tree.applying(fileEdits)
            guard edited.skipped.isEmpty else {
                let words = edited.skipped.map(\.expected).joined(separator: ", ")
                throw CommandFailure.error(
                    .dataError, "\(input.lock.display(path)): cannot rewrite \(words) where it is written; nothing was rewritten")
            }
            rewritten.append((path, edited.text))
        }
        for file in rewritten {
            do {
                try context.fileSystem.write(file.text, to: file.path)
            } catch {
                throw CommandFailure.unwritable(input.lock.display(file.path), error)
            }
        }
    }
}
