import Foundation
import Testing

/// Runs the built `stagebuild` executable as a user would, and shows that composing the
/// shipped example depends on nothing but its inputs: not the time zone, locale, home,
/// working directory or the order files were created in.
@Suite struct BinaryDeterminismTests {
    /// The `stagebuild` executable SwiftPM built next to the test bundle (`.build/debug`).
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        var candidates: [URL] = []
        for folder in folders {
            var current = folder
            for _ in 0..<4 {
                candidates.append(current.appendingPathComponent("stagebuild"))
                current.deleteLastPathComponent()
            }
        }
        candidates.append(Repository.root.appendingPathComponent(".build/debug/stagebuild"))
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
        return try #require(found, "no built stagebuild next to the test bundle; run swift build first")
    }

    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs the executable with exactly this environment (nothing inherited).
    static func run(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        let scratch = try Scratch()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Copies files in reverse name order, each folder's entries too, so that a directory
    /// listing in creation order differs from the original's.
    static func copyInReverseOrder(_ source: URL, to target: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: target, withIntermediateDirectories: true)
        for entry in try files.contentsOfDirectory(atPath: source.path).sorted().reversed() {
            let from = source.appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            _ = files.fileExists(atPath: from.path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try copyInReverseOrder(from, to: target.appendingPathComponent(entry))
            } else {
                try files.copyItem(at: from, to: target.appendingPathComponent(entry))
            }
        }
    }

    @Test func composesTheShippedExampleToTheSameBytesAnywhere() throws {
        let arguments = ["compose", "examples/node-nginx/Stagefile", "--stages", "Stages"]
        let first = try Self.run(
            arguments, in: Repository.root,
            environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": "/root"])
        try #require(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty)

        let elsewhere = try Scratch()
        try Self.copyInReverseOrder(
            Repository.root.appendingPathComponent("Stages"), to: elsewhere.url.appendingPathComponent("Stages"))
        try Self.copyInReverseOrder(
            Repository.root.appendingPathComponent("examples/node-nginx"),
            to: elsewhere.url.appendingPathComponent("examples/node-nginx"))
        let home = try Scratch()
        let second = try Self.run(
            arguments, in: elsewhere.url,
            environment: [
                "PATH": "/usr/bin:/bin", "TZ": "Pacific/Chatham", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8",
                "HOME": home.path, "SOURCE_DATE_EPOCH": "1", "STAGEBUILD_STAGES": home.path,
            ])
        try #require(second.status == 0, "\(second.stderr)")

        #expect(second.stdout == first.stdout)
        let text = String(decoding: first.stdout, as: UTF8.self)
        #expect(text.hasPrefix("# Generated by stagebuild compose"))
        #expect(!text.contains(Repository.root.path) && !text.contains(elsewhere.path) && !text.contains("/root"))
        #expect(!text.contains("\r") && text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
    }

    @Test func binaryExitStatusesFollowSysexits() throws {
        let scratch = try Scratch(fixture: "rejected", "unknown-template")
        let environment = ["PATH": "/usr/bin:/bin"]
        let bad = try Self.run(["compose", "Stagefile", "-o", "Dockerfile"], in: scratch.url, environment: environment)
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("Stagefile:2:5: error: unknown stage template 'node-runtme'"))
        #expect(!scratch.exists("Dockerfile"))
        let missing = try Self.run(["compose", "nowhere"], in: scratch.url, environment: environment)
        #expect(missing.status == 74)
        let usage = try Self.run(["compose", "--bogus"], in: scratch.url, environment: environment)
        #expect(usage.status == 64)
        #expect(usage.stderr.hasSuffix("See 'stagebuild compose --help'.\n"))
        let version = try Self.run(["--version"], in: scratch.url, environment: environment)
        #expect(version.status == 0)
        #expect(String(decoding: version.stdout, as: UTF8.self).hasPrefix("stagebuild "))
        let unknown = try Self.run(["frobnicate"], in: scratch.url, environment: environment)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasSuffix("See 'stagebuild --help'.\n"))
    }

    @Test func binaryListsAndShowsTheShippedCatalog() throws {
        let environment = ["PATH": "/usr/bin:/bin"]
        let list = try Self.run(["stages", "--stages", "Stages"], in: Repository.root, environment: environment)
        #expect(list.status == 0, "\(list.stderr)")
        let listing = String(decoding: list.stdout, as: UTF8.self)
        for name in ["debian", "nginx-reverse-proxy", "node-runtime", "node-service", "swift-builder", "swift-runtime"] {
            #expect(listing.contains("\n\(name) "), "\(name) is not listed")
        }
        let show = try Self.run(["stages", "node-service", "--stages", "Stages"], in: Repository.root, environment: environment)
        #expect(show.status == 0, "\(show.stderr)")
        let detail = String(decoding: show.stdout, as: UTF8.self)
        #expect(detail.hasPrefix("node-service (layer)\n"))
        #expect(detail.contains("\nrequires: node-runtime\n"))
        #expect(detail.contains("\npath:     Stages/node-service.Dockerfile\n"))
        for command in [["--help"], ["compose", "--help"], ["stages", "--help"]] {
            let help = try Self.run(command, in: Repository.root, environment: environment)
            #expect(help.status == 0)
            #expect(String(decoding: help.stdout, as: UTF8.self).hasPrefix("OVERVIEW: "))
        }
    }
}
