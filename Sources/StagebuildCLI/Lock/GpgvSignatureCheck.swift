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
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data(signed).write(to: input)
        } catch {
            throw ArchiveSignatureError("cannot write gpgv's input: \(error.localizedDescription)")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(
                program: program, arguments: ["--keyring", keyring, "--output", output.path, input.path], deadline: deadline
            ).run()
        } catch {
            throw ArchiveSignatureError(error.reason)
        }
        let said = String(decoding: result.errorOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        guard result.status == 0 else {
            let reason = said.filter { !$0.contains("Signature made") && !$0.contains("using ") }.joined(separator: "; ")
            throw ArchiveSignatureError("gpgv exited with \(result.status): \(reason)")
        }
        guard let text = FileManager.default.contents(atPath: output.path) else {
            throw ArchiveSignatureError("gpgv wrote no signed text")
        }
        return [UInt8](text)
    }
}
