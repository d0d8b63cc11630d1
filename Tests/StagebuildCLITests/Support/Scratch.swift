import Foundation
import StagebuildCLI
import Testing

/// Paths in the repository, found from this file's own path.
enum Repository {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// StageKit's fixture cases. They are read from the source tree because this test target
    /// declares no resources (any non-Swift file in it would make SwiftPM warn).
    static let fixtures = root.appendingPathComponent("Tests/StageKitTests/Fixtures")

    /// The case folders of a fixture group, sorted.
    static func cases(_ group: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(group).path)) ?? []
        return names.sorted()
    }
}

/// What one run of `stagebuild` produced.
struct CommandResult {
    var status: ExitCode
    var stdout: String
    var stderr: String
}

/// A temporary folder that a test owns and that is removed when the test drops it.
final class Scratch {
    let url: URL

    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stagebuild-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A scratch folder holding a copy of one fixture case (its Stagefile, Stages/ and expected files).
    convenience init(fixture group: String, _ name: String) throws {
        try self.init()
        let source = Repository.fixtures.appendingPathComponent(group).appendingPathComponent(name)
        for entry in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(entry), to: url.appendingPathComponent(entry))
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ text: String, to file: String) throws {
        let target = url.appendingPathComponent(file)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    func data(_ file: String) -> Data? { FileManager.default.contents(atPath: url.appendingPathComponent(file).path) }

    func text(_ file: String) -> String? { data(file).map { String(decoding: $0, as: UTF8.self) } }

    func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(file).path) }

    /// Every path below the folder, sorted: to see that a failed run left nothing behind.
    func listing() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        return ((enumerator?.allObjects as? [String]) ?? []).sorted()
    }

    /// The modification date and inode number of a file.
    func stamp(_ file: String) throws -> (modified: Date, inode: UInt64) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        let inode = try #require((attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
        return (modified, inode)
    }

    /// Sets a file's modification date to 2001-01-01, so that any rewrite shows.
    func backdate(_ file: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 978_307_200)], ofItemAtPath: url.appendingPathComponent(file).path)
    }

    /// Runs `stagebuild` in-process with this folder (or a folder in it) as the current
    /// directory, the given environment only, and an executable path inside the folder, so
    /// that no installed catalog is found.
    func run(_ arguments: [String], in subfolder: String? = nil, environment: [String: String] = [:]) -> CommandResult {
        let stdout = CapturingSink()
        let stderr = CapturingSink()
        let directory = subfolder.map { path + "/" + $0 } ?? path
        let context = CommandContext(
            environment: environment, currentDirectory: directory, executablePath: path + "/bin/stagebuild",
            standardOutput: stdout, standardError: stderr)
        let status = StagebuildCommand.run(arguments, context: context)
        return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
    }
}

/// Runs `stagebuild` in-process in an existing folder (read-only use, e.g. `--check` on a fixture).
func runStagebuild(_ arguments: [String], in directory: String, environment: [String: String] = [:]) -> CommandResult {
    let stdout = CapturingSink()
    let stderr = CapturingSink()
    let context = CommandContext(
        environment: environment, currentDirectory: directory, executablePath: "/nonexistent/bin/stagebuild",
        standardOutput: stdout, standardError: stderr)
    let status = StagebuildCommand.run(arguments, context: context)
    return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
}
