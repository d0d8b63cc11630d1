import Foundation

/// The files a replay or scaling run reads: each argument is a file or a folder of files.
enum ReplayInputs {
    /// The files named, and the files directly inside the folders named, sorted by path.
    ///
    /// - Throws: A Foundation error for a path that does not exist or cannot be listed.
    static func files(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            if isFolder.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// A file's bytes.
    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
