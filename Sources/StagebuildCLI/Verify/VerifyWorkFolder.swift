import Foundation
import StageKit

/// The folder `stagebuild verify` works in: the Dockerfile, the second build's context, both
/// image layouts and the builds' logs. A temporary folder removed at the end, or the
/// `--keep` folder, kept.
final class VerifyWorkFolder {
    /// The folder's path.
    let path: String
    /// The `--keep` folder, when one was given.
    let kept: String?

    /// Makes the folder.
    ///
    /// - Parameters:
    ///   - keep: The `--keep` folder: made if missing, refused when it holds anything.
    ///   - context: The build context's folder, which the `--keep` folder must not be in (the
    ///     builds would send it to the builder, the second build's copy included); `nil` when
    ///     nothing is built (`--compare`).
    /// - Throws: `CommandFailure` 74 when it cannot be made, 64 for a `--keep` folder that is
    ///   not empty, is a file, or is inside the build context.
    init(keep: String?, context: String?) throws(CommandFailure) {
        let files = FileManager.default
        if let keep {
            let folder = Paths.normalized(keep)
            if let context, case let root = Paths.normalized(context),
                folder == root || folder.hasPrefix(root == "/" ? root : root + "/")
            {
                throw CommandFailure.usage(
                    "--keep \(keep) is inside the build context \(context): the builds would copy it; name a folder outside it")
            }
            var isFolder: ObjCBool = false
            if files.fileExists(atPath: keep, isDirectory: &isFolder), !isFolder.boolValue {
                throw CommandFailure.usage("--keep \(keep) is a file; name a new or empty folder")
            }
            if let existing = try? files.contentsOfDirectory(atPath: keep), !existing.isEmpty {
                throw CommandFailure.usage("--keep \(keep) holds files already; name a new or empty folder")
            }
            do {
                try files.createDirectory(atPath: keep, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure.error(.ioError, "cannot make --keep \(keep): \(error.localizedDescription)")
            }
            path = keep
            kept = keep
            return
        }
        // mkdtemp(3) replaces the six trailing X with a unique suffix.
        let template = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/stagebuild-verify.XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw CommandFailure.error(.ioError, "cannot make a work folder in \(template): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
        kept = nil
    }

    /// Removes the folder unless it was `--keep`.
    func removeUnlessKept() {
        guard kept == nil else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
