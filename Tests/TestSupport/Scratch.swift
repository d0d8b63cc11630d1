import Foundation

/// A temporary folder that a test owns, removed with everything in it when the last reference
/// to it goes. Paths given to its methods are relative to the folder.
public final class Scratch: @unchecked Sendable {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates an empty folder in the system's temporary directory.
    ///
    /// - Parameter prefix: the start of the folder's name (a UUID follows), to tell whose it is.
    /// - Throws: the file system's error when the folder cannot be created.
    public init(prefix: String = "stagebuild-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` as UTF-8 to `file`, creating the folders on its way.
    ///
    /// - Throws: the file system's error.
    public func write(_ text: String, to file: String) throws {
        let target = url.appendingPathComponent(file)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    /// The bytes of `file`, or `nil` when it cannot be read.
    public func data(_ file: String) -> Data? { FileManager.default.contents(atPath: url.appendingPathComponent(file).path) }

    /// The text of `file` as UTF-8 (invalid bytes replaced), or `nil` when it cannot be read.
    public func text(_ file: String) -> String? { data(file).map { String(decoding: $0, as: UTF8.self) } }

    /// Whether `file` (or a folder of that name) exists.
    public func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(file).path) }

    /// Every path below the folder, relative and sorted: to see that a failed run left nothing behind.
    public func listing() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        return ((enumerator?.allObjects as? [String]) ?? []).sorted()
    }

    /// Sets the modification date of `file` to 2001-01-01, so that any rewrite shows.
    ///
    /// - Throws: the file system's error.
    public func backdate(_ file: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 978_307_200)], ofItemAtPath: url.appendingPathComponent(file).path)
    }
}
