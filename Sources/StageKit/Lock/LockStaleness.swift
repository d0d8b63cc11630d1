/// One reason a lockfile does not match its composition.
public enum LockStaleness: Sendable, Hashable, CustomStringConvertible {
    /// There is no lockfile.
    case missing
    /// The lockfile was written by a stagebuild with another format version.
    case formatVersion(found: Int)
    /// The composition names an image the lockfile does not hold (as written).
    case imageAdded(String)
    /// The lockfile holds an image the composition no longer names.
    case imageRemoved(String)
    /// The composition pins an apt package version the lockfile does not hold (a pin added,
    /// or edited to another version).
    case packageAdded(String)
    /// The lockfile holds a package pin the composition no longer has.
    case packageRemoved(String)
    /// A snapshot parameter the Stagefile gives (`DEBIAN_SNAPSHOT`, …) is not the snapshot the
    /// packages were resolved at.
    case snapshotChanged(parameter: String, locked: String?, current: String)
    /// The apt archives a pin is read from are not those it was resolved in (a URL, a release,
    /// a component or a key changed, or the pin moved to another build stage).
    case packageArchivesChanged(String, locked: String, current: String)
    /// The lock was written for another build architecture than the one asked for now.
    case architectureChanged(locked: String, current: String)
    /// A package entry's fields do not match its `integrity`.
    case packageEdited(String)
    /// A package entry holds what `stagebuild lock` never writes.
    case packageEntryInvalid(String, reason: String)
    /// The composition uses a template the lockfile does not know.
    case templateAdded(String)
    /// The lockfile knows a template the composition no longer uses.
    case templateRemoved(String)
    /// A template's content changed since the lockfile was written.
    case templateChanged(String, locked: Digest, current: Digest)
    /// An image entry's fields do not match its `integrity` (its digest, name or media type
    /// was edited by hand).
    case imageEdited(String)
    /// An image entry holds what `stagebuild lock` never writes: a name that is not its
    /// reference's full name, or a media type that is no manifest or index.
    case imageEntryInvalid(String, reason: String)
    /// The recorded hash of all inputs does not match the entries (the file was edited by hand).
    case inputsDigestMismatch

    /// One phrase, e.g. `template 'debian' changed (locked sha256:…, now sha256:…)`.
    public var description: String {
        switch self {
        case .missing: "there is no \(Lockfile.fileName)"
        case .formatVersion(let found): "it has format \(found), this stagebuild writes format \(Lockfile.formatVersion)"
        case .imageAdded(let image): "image \(image) was added"
        case .imageRemoved(let image): "image \(image) was removed"
        case .packageAdded(let pin): "package pin \(pin) was added"
        case .packageRemoved(let pin): "package pin \(pin) was removed"
        case .snapshotChanged(let parameter, let locked, let current):
            "\(parameter) is \(current), the packages were resolved at \(locked.map { "snapshot \($0)" } ?? "the live archive")"
        case .packageArchivesChanged(let pin, let locked, let current):
            "package pin \(pin) is read from other apt archives now (\(current.isEmpty ? "none declared" : current)) "
                + "than it was locked in (\(locked.isEmpty ? "none declared" : locked))"
        case .architectureChanged(let locked, let current):
            "the packages were locked for \(locked), not \(current)"
        case .packageEdited(let pin):
            "the entry of package pin \(pin) does not match its integrity digest (edited by hand?)"
        case .packageEntryInvalid(let pin, let reason):
            "the entry of package pin \(pin) is not what stagebuild lock writes: \(reason)"
        case .templateAdded(let name): "template '\(name)' was added"
        case .templateRemoved(let name): "template '\(name)' was removed"
        case .templateChanged(let name, let locked, let current): "template '\(name)' changed (locked \(locked), now \(current))"
        case .imageEdited(let image):
            "the entry of image \(image) does not match its integrity digest (its digest, name or media type was edited by hand?)"
        case .imageEntryInvalid(let image, let reason):
            "the entry of image \(image) is not what stagebuild lock writes: \(reason)"
        case .inputsDigestMismatch: "its inputsDigest does not match its entries (edited by hand?)"
        }
    }
}
