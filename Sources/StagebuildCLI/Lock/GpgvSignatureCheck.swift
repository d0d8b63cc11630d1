import Foundation
import StageKit

/// The InRelease check of `stagebuild lock`: GnuPG's `gpgv` run as a child process against
/// the archive's keyring, as apt does it (apt's `gpgv` call), with a deadline.
///
/// The signed text is taken from gpgv's `--output` (what it verified, dash-escaping removed),
/// never from the unverified file. gpgv exits 0 only when the signatures are good and made by
/// keys in the keyring. A keyring file on this machine is used as it is (Debian's
/// `debian-archive-keyring` and `ubuntu-keyring` install the archives' own); a key in the build
/// context, ASCII-armored or binary, is written as a binary keyring first (`gpg --dearmor`'s
/// work), as apt reads a `Signed-By` `.asc` file.
///
/// Source: gpgv(1) (`--keyring`, `--output`, exit status); sources.list(5) (`Signed-By`).
struct GpgvSignatureCheck: ArchiveSignatureCheck {
    /// The gpgv program.
    var program = "/usr/bin/gpgv"
    /// The build context's folder: where a template's key file is read from.
    var buildContext: String
    /// Where the keyring and key files are read.
    var fileSystem: any FileSystem
    /// The longest gpgv may run, in seconds; then it is killed.
    var deadline: Double

    func verifiedText(of signed: [UInt8], keyring: AptKeyring) throws(ArchiveSignatureError) -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ArchiveSignatureError("\(program) is missing (Debian package gpgv)")
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
        let keyringPath = try keyringFile(keyring, in: folder)
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(
                program: program, arguments: ["--keyring", keyringPath, "--output", output.path, input.path],
                deadline: deadline
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

    /// The keyring file gpgv reads: the machine's file, or the build context's key as a binary
    /// keyring in `folder`.
    private func keyringFile(_ keyring: AptKeyring, in folder: URL) throws(ArchiveSignatureError) -> String {
        switch keyring {
        case .file(let path):
            guard (try? fileSystem.readBytes(at: path)) != nil else {
                let package =
                    path.hasSuffix("/debian-archive-keyring.gpg")
                    ? " (Debian package debian-archive-keyring)"
                    : path.hasSuffix("/ubuntu-archive-keyring.gpg") ? " (Debian package ubuntu-keyring)" : ""
                throw ArchiveSignatureError("the keyring \(path) is missing\(package)")
            }
            return path
        case .buildContext(let relative):
            let components = relative.split(separator: "/")
            guard !relative.hasPrefix("/"), !components.contains("..") else {
                throw ArchiveSignatureError("the key \(relative) is not a path inside the build context")
            }
            let path = Paths.absolute(relative, from: buildContext)
            var key: [UInt8]
            do {
                key = try fileSystem.readBytes(at: path)
            } catch {
                throw ArchiveSignatureError("cannot read the key \(relative) in the build context (\(path)): \(error.reason)")
            }
            if OpenPGPArmor.isArmored(key) {
                guard let packets = OpenPGPArmor.publicKey(key) else {
                    throw ArchiveSignatureError("the key \(relative) is ASCII-armored but holds no public key block")
                }
                key = packets
            }
            let file = folder.appendingPathComponent("keyring.gpg")
            do {
                try Data(key).write(to: file)
            } catch {
                throw ArchiveSignatureError("cannot write the keyring for \(relative): \(error.localizedDescription)")
            }
            return file.path
        }
    }
}
