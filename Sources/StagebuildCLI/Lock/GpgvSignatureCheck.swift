import Foundation
import StageKit

/// The InRelease check of `stagebuild lock`: GnuPG's `gpgv` run as a child process against
/// Debian's archive keyring, as apt does it (apt-key's `gpgv` call), with a deadline.
///
/// The signed text is taken from gpgv's `--output` (what it verified, dash-escaping removed),
/// never from the unverified file. gpgv exits 0 only when the signatures are good and made by
/// keys in the keyring.
///
/// Source: gpgv(1) (`--keyring`, `--output`, exit status); Debian's packages `gpgv` and
/// `debian-archive-keyring` (`/usr/share/keyrings/debian-archive-keyring.gpg`).
struct GpgvSignatureCheck: ArchiveSignatureCheck {
    /// Debian's archive keyring, from the package `debian-archive-keyring`.
    static let debianKeyring = "/usr/share/keyrings/debian-archive-keyring.gpg"

    /// The gpgv program.
    var program = "/usr/bin/gpgv"
    /// The keyring whose keys are trusted.
    var keyring = debianKeyring
    /// The longest gpgv may run, in seconds; then it is killed.
    var deadline: Double

    func verifiedText(of signed: [UInt8]) throws(ArchiveSignatureError) -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ArchiveSignatureError("\(program) is missing (Debian package gpgv)")
        }
        guard FileManager.default.isReadableFile(atPath: keyring) else {
            throw ArchiveSignatureError("the keyring \(keyring) is missing (Debian package debian-archive-keyring)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stagebuild-gpgv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("InRelease")
        let output = folder.appendingPathComponent("Release")
        let log = folder.appendingPathComponent("gpgv.log")
        let process = Process()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data(signed).write(to: input)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = ["--keyring", keyring, "--output", output.path, input.path]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
            let finished = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in finished.signal() }
            try process.run()
            if finished.wait(timeout: .now() + deadline) == .timedOut {
                process.terminate()
                if finished.wait(timeout: .now() + 1) == .timedOut { kill(process.processIdentifier, SIGKILL) }
                throw ArchiveSignatureError("gpgv did not finish within \(deadline) s")
            }
        } catch let error as ArchiveSignatureError {
            throw error
        } catch {
            throw ArchiveSignatureError("cannot run gpgv: \(error.localizedDescription)")
        }
        let said = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        guard process.terminationStatus == 0 else {
            let reason = said.filter { !$0.contains("Signature made") && !$0.contains("using ") }.joined(separator: "; ")
            throw ArchiveSignatureError("gpgv exited with \(process.terminationStatus): \(reason)")
        }
        guard let text = FileManager.default.contents(atPath: output.path) else {
            throw ArchiveSignatureError("gpgv wrote no signed text")
        }
        return [UInt8](text)
    }
}
