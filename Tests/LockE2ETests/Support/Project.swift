import Foundation
import TestSupport
import Testing

/// A scratch project folder (Stagefile, catalog, lockfile) that a test owns; removed at the end.
typealias Project = Scratch

extension Scratch {
    /// The environment every run starts from: nothing inherited, so no proxy variable or
    /// `STAGEBUILD_REGISTRY_AUTH` of the machine changes a result.
    static let baseEnvironment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]

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

    /// Runs the built `stagebuild` in this folder, `environment` over ``baseEnvironment``, killed after 120 s.
    func stagebuild(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        try ProcessRun.run(
            try ProcessRun.builtExecutable("stagebuild"), arguments,
            environment: Self.baseEnvironment.merging(environment) { $1 }, in: url, limit: .seconds(120))
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
        var archive: String
        var filename: String
        var integrity: String
        var name: String
        var sha256: String
        var suite: String
        var version: String
    }

    var architecture: String?
    var formatVersion: Int
    var images: [String: Image]
    var inputsDigest: String
    var packages: [String: Package]
    var snapshots: [String: String]
    var templates: [String: Template]
    var unverifiedPackages: [String]
}
