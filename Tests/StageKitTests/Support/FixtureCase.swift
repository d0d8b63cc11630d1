import DockerfileSyntax
import Foundation
import StageKit
import Testing

/// One case folder under `Fixtures/composed` or `Fixtures/rejected`: a tiny project with a
/// `Stagefile`, its own catalog in `Stages/`, and the expected result.
struct FixtureCase: CustomTestStringConvertible, Sendable {
    /// `composed` or `rejected`.
    var group: String
    /// The folder name, e.g. `requires-order`.
    var name: String

    var testDescription: String { "\(group)/\(name)" }

    /// The fixtures as the test bundle holds them (`resources: [.copy("Fixtures")]`).
    static let bundledRoot = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    /// The fixtures in the source tree, where `RECORD_GOLDEN=1` writes expected files.
    static let sourceRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The command the golden Dockerfiles name in their header: what `stagebuild compose
    /// -o Dockerfile` writes when run inside the case folder.
    static let regenerateCommand = "stagebuild compose Stagefile -o Dockerfile (run in the Stagefile's folder)"

    /// Every case of a group, sorted by name.
    static func all(_ group: String) -> [FixtureCase] {
        let folder = bundledRoot.appendingPathComponent(group)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { FixtureCase(group: group, name: $0) }
    }

    var directory: String { Self.bundledRoot.appendingPathComponent(group).appendingPathComponent(name).path }

    /// Reads a file of the case byte for byte (a byte order mark is kept).
    func text(_ file: String) throws -> String {
        try LocalFileSystem().readText(at: directory + "/" + file)
    }

    /// A composer over the case's own catalog, showing paths relative to the case folder.
    func composer() -> Composer {
        let directory = self.directory
        let catalog = StageCatalog(
            folders: [directory + "/Stages"], fileSystem: LocalFileSystem(),
            display: { Paths.relative($0, from: directory) })
        return Composer(
            catalog: catalog, stagefileDirectory: directory, stagefileName: "Stagefile",
            regenerateCommand: Self.regenerateCommand)
    }

    /// Parses the case's Stagefile and composes it.
    func compose() throws(CompositionError) -> String {
        let text: String
        do {
            text = try self.text("Stagefile")
        } catch {
            throw CompositionError("cannot read the fixture: \(error)", file: "Stagefile")
        }
        let stagefile = try Stagefile(text: text, displayPath: "Stagefile")
        return try composer().compose(stagefile)
    }

    /// Compares `actual` with the expected file of the case; with `RECORD_GOLDEN=1` in the
    /// environment, writes `actual` into the source tree instead and reports the files it
    /// changed, so that a recording run is never mistaken for a passing one.
    func expectGolden(_ file: String, equals actual: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let expected = try? text(file)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            guard expected != actual else { return }
            let target = Self.sourceRoot.appendingPathComponent(group).appendingPathComponent(name).appendingPathComponent(file)
            try Data(actual.utf8).write(to: target)
            Issue.record(
                "recorded \(group)/\(name)/\(file); read the diff, then run again without RECORD_GOLDEN",
                sourceLocation: sourceLocation)
            return
        }
        guard let expected else {
            Issue.record(
                "\(group)/\(name)/\(file) is missing; run the tests with RECORD_GOLDEN=1 to record it",
                sourceLocation: sourceLocation)
            return
        }
        if let difference = Self.firstDifference(expected: expected, actual: actual) {
            Issue.record("\(group)/\(name)/\(file) differs: \(difference)", sourceLocation: sourceLocation)
        }
    }

    /// The first line where two texts differ, described for a failure message.
    static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let wanted = index < expectedLines.count ? String(expectedLines[index]) : "<end of file>"
            let got = index < actualLines.count ? String(actualLines[index]) : "<end of file>"
            if wanted != got { return "line \(index + 1): expected \(wanted.debugDescription), got \(got.debugDescription)" }
        }
        return "same lines, different bytes"
    }
}
