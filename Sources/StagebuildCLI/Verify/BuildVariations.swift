import Foundation
import StageKit

/// What differs between the two builds of `stagebuild verify`: each a difference that really
/// exists between two CI runners, named as reprotest names its variations (reprotest(1),
/// "Variations"), and `--vary` to choose them.
struct BuildVariations {
    /// One variation.
    enum Variation: String, CaseIterable {
        /// The second build starts in another minute (SOURCE_DATE_EPOCH stays the same), and
        /// the second context's files carry the time they were copied at.
        case time
        /// The second build's context is another folder, at another path.
        case buildPath = "build_path"
        /// The second context's entries are made in the reverse order, so its folders list them
        /// in another order.
        case fileOrdering = "fileordering"
        /// The second context's files and folders are group-writable, as a checkout under
        /// umask 0002 makes them.
        case umask
        /// The second build sees one CPU (its builder runs under `taskset -c 0`).
        case numCPUs = "num_cpus"
        /// Each build's host name; buildah and podman name each build container's host after its
        /// ID (BuildKit names every one `buildkitsandbox`).
        case domainHost = "domain_host"
        /// The second build's user namespace maps the container's users to other host users.
        case userGroup = "user_group"
        /// The second builder's environment: the proxy variables it passes on to the build
        /// (`no_proxy`), its time zone and locale.
        case environment
    }

    /// The variations asked for.
    var chosen: [Variation]

    /// Reads `--vary`: a comma-separated list of names; `all` for every one; `-name` and
    /// `+name` remove or add one, starting from every one when the list starts with either.
    ///
    /// - Parameter text: The option's value; `nil` for every variation.
    /// - Throws: `CommandFailure.usage` for a name that is not a variation.
    init(_ text: String?) throws(CommandFailure) {
        guard let text else {
            chosen = Variation.allCases
            return
        }
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            throw CommandFailure.usage("--vary takes a comma-separated list of variations; --vary=-all varies none")
        }
        var set: Set<Variation> =
            items.first.map { $0.hasPrefix("-") || $0.hasPrefix("+") } == true ? Set(Variation.allCases) : []
        for item in items {
            let removes = item.hasPrefix("-")
            let name = item.hasPrefix("-") || item.hasPrefix("+") ? String(item.dropFirst()) : item
            let named: [Variation]
            if name == "all" {
                named = Variation.allCases
            } else if let variation = Variation(rawValue: name) {
                named = [variation]
            } else {
                let names = Variation.allCases.map(\.rawValue).joined(separator: ", ")
                throw CommandFailure.usage("--vary \(name): not a variation (\(names), all)")
            }
            if removes { set.subtract(named) } else { set.formUnion(named) }
        }
        chosen = Variation.allCases.filter(set.contains)
    }

    /// Whether a variation was asked for.
    func has(_ variation: Variation) -> Bool { chosen.contains(variation) }

    /// Whether a variation was asked for and the builder can apply it.
    func applies(_ variation: Variation, with builder: ImageBuilder.Kind) -> Bool {
        has(variation) && builder.unapplied(variation) == nil
    }

    /// Whether the second build needs a copy of the build context.
    var copiesContext: Bool { has(.time) || has(.buildPath) || has(.fileOrdering) || has(.umask) }

    /// A value only the second build's environment holds, so content that records it is recognised.
    static let environmentMarker = ".stagebuild-verify.invalid"

    /// The second build's builder environment, from the first's.
    func secondEnvironment(_ environment: [String: String], builder: ImageBuilder.Kind) -> [String: String] {
        guard applies(.environment, with: builder) else { return environment }
        var varied = environment
        for name in ["no_proxy", "NO_PROXY"] {
            let value = environment[name].map { $0.isEmpty ? "" : $0 + "," } ?? ""
            varied[name] = value + Self.environmentMarker
        }
        varied["TZ"] = "Etc/GMT-14"
        varied["LANG"] = "fr_CH.UTF-8"
        varied["LC_ALL"] = "fr_CH.UTF-8"
        return varied
    }

    /// Copies a build context as a checkout on another runner would hold it: at another path,
    /// its entries made in reverse order (`fileordering`), group-writable where the group may
    /// read (`umask`), with the
    /// time of the copy (`time`); otherwise modes and times are kept.
    ///
    /// - Parameters:
    ///   - source: The context folder.
    ///   - destination: The new folder (must not exist).
    /// - Throws: `CocoaError` from the file system.
    func copyContext(from source: String, to destination: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
        var paths = (files.subpaths(atPath: source) ?? []).sorted()
        if has(.fileOrdering) { paths.reverse() }
        // Folders first (in the chosen order), so a reversed order still has each parent.
        let isFolder = { (path: String) in
            var folder: ObjCBool = false
            return files.fileExists(atPath: source + "/" + path, isDirectory: &folder) && folder.boolValue
        }
        for path in paths where isFolder(path) {
            try files.createDirectory(atPath: destination + "/" + path, withIntermediateDirectories: true)
        }
        for path in paths where !isFolder(path) {
            try files.copyItem(atPath: source + "/" + path, toPath: destination + "/" + path)
        }
        for path in [""] + paths {
            let from = path.isEmpty ? source : source + "/" + path
            let to = path.isEmpty ? destination : destination + "/" + path
            let attributes = try files.attributesOfItem(atPath: from)
            if attributes[.type] as? FileAttributeType == .typeSymbolicLink { continue }
            var mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
            // A checkout under umask 0002 makes what git writes 0644 (or 0755) group-writable;
            // a file the group cannot read stays as it is.
            if has(.umask), mode & 0o040 != 0 { mode |= 0o020 }
            try files.setAttributes([.posixPermissions: NSNumber(value: mode)], ofItemAtPath: to)
            if !has(.time), let date = attributes[.modificationDate] {
                try files.setAttributes([.modificationDate: date], ofItemAtPath: to)
            }
        }
    }
}
