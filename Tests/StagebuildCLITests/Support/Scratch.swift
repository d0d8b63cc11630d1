import Foundation
import StagebuildCLI
import TestSupport
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

extension Scratch {
    /// A scratch folder holding a copy of one fixture case (its Stagefile, Stages/ and expected files).
    convenience init(fixture group: String, _ name: String) throws {
        try self.init()
        let source = Repository.fixtures.appendingPathComponent(group).appendingPathComponent(name)
        for entry in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(entry), to: url.appendingPathComponent(entry))
        }
    }

    /// The modification date and inode number of a file.
    func stamp(_ file: String) throws -> (modified: Date, inode: UInt64) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        let inode = try #require((attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
        return (modified, inode)
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
