import Foundation
import Testing

/// A scratch project folder (Stagefile, catalog, lockfile) that a test owns; removed at the end.
final class Project {
    let url: URL

    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stagebuild-lock-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ text: String, to file: String) throws {
        let target = url.appendingPathComponent(file)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    func data(_ file: String) -> Data? { FileManager.default.contents(atPath: url.appendingPathComponent(file).path) }

    func text(_ file: String) -> String? { data(file).map { String(decoding: $0, as: UTF8.self) } }

    /// The lockfile as JSON.
    func lockfile() throws -> LockfileJSON {
        let bytes = try #require(self.data("stagebuild.lock"), "no stagebuild.lock in \(path)")
        return try JSONDecoder().decode(LockfileJSON.self, from: bytes)
    }

    /// The modification time and inode of a file, to see that a failed run did not rewrite it.
    func stamp(_ file: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)
        return "\(attributes[.modificationDate] ?? "") \(attributes[.systemFileNumber] ?? "")"
    }

    /// Sets a file's modification date to 2001-01-01, so that any rewrite shows.
    func backdate(_ file: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 978_307_200)], ofItemAtPath: url.appendingPathComponent(file).path)
    }

    /// Runs the built `stagebuild` in this folder.
    func stagebuild(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        try ProcessRun.run(try ProcessRun.stagebuild(), arguments, in: path, environment: environment)
    }
}

/// The fields of `stagebuild.lock` the tests read.
struct LockfileJSON: Decodable {
    struct Image: Decodable {
        var digest: String
        var mediaType: String
        var name: String
        var reference: String
    }

    struct Template: Decodable {
        var digest: String
    }

    struct Package: Decodable {
        var architecture: String
        var filename: String
        var integrity: String
        var name: String
        var sha256: String
        var suite: String
        var version: String
    }

    var debianSnapshot: String?
    var formatVersion: Int
    var images: [String: Image]
    var inputsDigest: String
    var packages: [String: Package]
    var templates: [String: Template]
}
