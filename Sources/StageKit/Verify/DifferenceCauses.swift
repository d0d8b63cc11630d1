import DockerfileSyntax

/// Names the cause of one difference between two builds from what differs, where, and the
/// instruction that wrote it: the catalog's rules (``ReproducibilityCause``), first match wins.
public enum DifferenceCauses {
    /// The cause of a path's difference.
    ///
    /// - Parameters:
    ///   - difference: The path and what differs.
    ///   - instruction: The instruction that made the layer; `nil` for a base image's layer.
    ///   - packagesChanged: Whether the layer installed a package at another version.
    ///   - conditions: How the second build's conditions differed.
    /// - Returns: The cause.
    public static func cause(
        of difference: EntryDifference, instruction: Instruction?, packagesChanged: Bool, conditions: BuildConditions
    ) -> ReproducibilityCause {
        if let cause = causeByPath("/" + difference.path) { return cause }
        if difference.path == PackageVersions.statusPath, packagesChanged { return .packageVersion }
        let copiesFromContext = instruction?.asCopy.map { $0.from == nil } ?? false
        let command = instruction?.asRun?.command?.words.map(\.text).joined(separator: " ") ?? ""
        let fetches = downloads(instruction)
        if difference.aspects.contains(.content), let first = difference.first, let second = difference.second {
            if let cause = causeByContent(first.contentPrefix, second.contentPrefix, command: command, conditions: conditions) {
                return cause
            }
            if packagesChanged { return .packageVersion }
            return fetches ? .networkContent : .unexplained
        }
        if difference.first == nil || difference.second == nil {
            return fetches ? .networkContent : .unexplained
        }
        if difference.aspects.allSatisfy({ $0 == .modificationTime }) { return .fileTimes }
        if copiesFromContext, difference.aspects.contains(.permissions) { return .contextPermissions }
        if packagesChanged { return .packageVersion }
        return .unexplained
    }

    /// The causes a path alone tells: logs, caches and state files of known tools.
    static func causeByPath(_ path: String) -> ReproducibilityCause? {
        let packageManagerFiles = [
            "/var/log/dpkg.log", "/var/log/alternatives.log", "/var/log/apt/", "/var/cache/apt/pkgcache.bin",
            "/var/cache/apt/srcpkgcache.bin", "/var/lib/apt/extended_states", "/var/lib/dpkg/lock",
            "/var/lib/dpkg/triggers/", "/var/log/bootstrap.log",
        ]
        if packageManagerFiles.contains(where: { path == $0 || $0.hasSuffix("/") && path.hasPrefix($0) }) {
            return .packageManagerLogs
        }
        if path == "/var/cache/ldconfig/aux-cache" { return .ldconfigCache }
        if path.hasPrefix("/var/cache/debconf/"), path.hasSuffix("-old") { return .debconfOld }
        if path.hasSuffix(".pyc") || path.contains("/__pycache__/") { return .pythonBytecode }
        let toolFolders = ["/.npm/", "/.cache/pip/", "/.cache/yarn/", "/.yarn-cache/", "/usr/local/share/.cache/"]
        if toolFolders.contains(where: path.contains) || path.hasSuffix("/npm-debug.log") { return .toolCaches }
        if path == "/etc/machine-id" || path == "/var/lib/dbus/machine-id" { return .machineID }
        if path.hasPrefix("/tmp/") || path.hasPrefix("/var/tmp/") { return .temporaryFiles }
        return nil
    }

    /// The causes the differing bytes tell.
    ///
    /// - Parameters:
    ///   - first: The first build's bytes.
    ///   - second: The second build's bytes.
    ///   - command: The command of the `RUN` that wrote them, as written; empty for another instruction.
    ///   - conditions: How the second build's conditions differed.
    static func causeByContent(
        _ first: [UInt8], _ second: [UInt8], command: String = "", conditions: BuildConditions
    ) -> ReproducibilityCause? {
        // gzip (RFC 1952 §2.3: bytes 4-7 MTIME) and zip (PKWARE APPNOTE 4.3.7: local headers with DOS times).
        if first.starts(with: [0x1f, 0x8b]), second.starts(with: [0x1f, 0x8b]) { return .archiveTimes }
        if first.starts(with: [0x50, 0x4b, 0x03, 0x04]), second.starts(with: [0x50, 0x4b, 0x03, 0x04]) {
            return .archiveTimes
        }
        // tar (POSIX.1-2001 ustar header: "ustar" at offset 257; each entry's mtime in its header).
        if isTar(first), isTar(second) { return .archiveTimes }
        guard let region = DifferingText(first, second) else { return nil }
        if let counts = conditions.cpuCounts, region.first == String(counts.first), region.second == String(counts.second) {
            return .cpuCount
        }
        // Without the builds' CPU counts (--compare), a number a CPU-counting command wrote.
        let counting = ["nproc", "_nprocessors_onln", "cpu_count", "/proc/cpuinfo"]
        if !region.first.isEmpty, !region.second.isEmpty, (region.first + region.second).allSatisfy(\.isNumber),
            counting.contains(where: command.lowercased().contains)
        {
            return .cpuCount
        }
        if let marker = conditions.environmentMarker, region.second.contains(marker) || region.first.contains(marker) {
            return .environment
        }
        if let paths = conditions.contextPaths, region.first.contains(paths.first) || region.second.contains(paths.second) {
            return .buildPath
        }
        // buildah and podman name each build container's host after its ID's first 12 hex digits.
        if isContainerHostName(region.first), isContainerHostName(region.second) { return .hostName }
        // A listing of file modes (`ls -l`: `-rw-r--r--`) that differ where the times do not.
        let modes = (modeStrings(region.first), modeStrings(region.second))
        if !modes.0.isEmpty, modes.0 != modes.1, timeStrings(region.first) == timeStrings(region.second) {
            return .contextPermissions
        }
        // Times that differ, not times that are the same on both sides of another difference.
        if !timeStrings(region.first).isEmpty, timeStrings(region.first) != timeStrings(region.second) { return .buildTime }
        return nil
    }

    private static func isTar(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 262 && Array(bytes[257..<262]) == Array("ustar".utf8)
    }

    /// The `ls -l` mode strings in a text: a type letter and nine permission letters.
    static func modeStrings(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace).filter { word in
            word.count == 10 && "-dlcbps".contains(word.first ?? " ")
                && word.dropFirst().allSatisfy { "rwxsStT-".contains($0) }
        }
    }

    /// The times in a text, in order (``looksLikeTime(_:)`` for each word).
    static func timeStrings(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace).filter { looksLikeTime(String($0)) }
    }

    private static func isContainerHostName(_ text: String) -> Bool {
        text.utf8.count == 12 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A clock time (`10:11:59`), an ISO 8601 date, or seconds since the epoch in this century.
    static func looksLikeTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digit(_ index: Int) -> Bool { index >= 0 && index < bytes.count && (0x30...0x39).contains(bytes[index]) }
        for index in bytes.indices {
            // hh:mm, the clock of date(1), ls -l, logs.
            if bytes[index] == 0x3a, digit(index - 1), digit(index - 2), digit(index + 1), digit(index + 2) {
                return true
            }
            // yyyy-mm-dd.
            if bytes[index] == 0x2d, index >= 4, (index - 4...index - 1).allSatisfy(digit), digit(index + 1),
                digit(index + 2), index + 3 < bytes.count, bytes[index + 3] == 0x2d
            {
                return true
            }
        }
        // 10 digits from 1000000000 (2001) on: `date +%s`.
        return bytes.count == 10 && bytes.allSatisfy { (0x30...0x39).contains($0) } && bytes[0] != 0x30
    }

    /// Whether an instruction fetches from the network: `ADD` of a URL, or a `RUN` whose command
    /// runs a download tool.
    static func downloads(_ instruction: Instruction?) -> Bool {
        if instruction?.knownKeyword == .add, let sources = instruction?.asCopy?.sources {
            return sources.contains { $0.text.lowercased().hasPrefix("http://") || $0.text.lowercased().hasPrefix("https://") }
        }
        guard let command = instruction?.asRun?.command?.words.map(\.text).joined(separator: " ").lowercased() else {
            return false
        }
        let tools = ["curl ", "wget ", "git clone", "git fetch", "pip install", "npm install", "go get", "svn "]
        return tools.contains(where: command.contains)
    }
}
