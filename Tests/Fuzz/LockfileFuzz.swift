import StageKit

/// The lockfile reader (`Lockfile(parsing:)`) and writer (`Lockfile.text`). For every text the
/// reader accepts, the file written from it reads back as the same lockfile (unless an entry
/// was edited by hand: writing records its true integrity digest, so then the copy has no
/// edited entry), and writing that again gives the same bytes: what `lock --check` and a
/// reviewer's diff rely on.
enum LockfileFuzz {
    static let target = FuzzTarget(name: "lockfile", check: check, grow: grow)

    static func check(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        guard let lockfile = try? Lockfile(parsing: text) else { return }
        let written = lockfile.text
        guard let again = try? Lockfile(parsing: written) else {
            invariantFailed("lockfile", "the written lockfile does not read")
        }
        if hasEditedEntry(again) || (!hasEditedEntry(lockfile) && again != lockfile) {
            invariantFailed("lockfile", "the written lockfile does not read back as itself")
        }
        if again.text != written { invariantFailed("lockfile", "writing the lockfile twice gives different bytes") }
    }

    private static func hasEditedEntry(_ lockfile: Lockfile) -> Bool {
        lockfile.images.values.contains(where: \.isEdited) || lockfile.packages.values.contains(where: \.isEdited)
    }

    /// The lockfile with `factor` times as many entries: template digests added under new names.
    /// A seed that does not read is returned as it is.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        guard let text = String(validating: seed, as: UTF8.self), var lockfile = try? Lockfile(parsing: text) else { return seed }
        let digest = Digest.sha256(of: seed)
        let entries = max(1, lockfile.images.count + lockfile.templates.count + lockfile.packages.count)
        for index in 0..<(entries * (factor - 1)) { lockfile.templates["generated-\(index)"] = digest }
        return Array(lockfile.text.utf8)
    }
}
