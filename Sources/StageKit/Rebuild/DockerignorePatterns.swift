import Foundation

/// The patterns of a `.dockerignore` file and whether they keep a context path out of the
/// build, as BuildKit's context transfer decides (Dockerfile reference, ".dockerignore file";
/// moby/patternmatcher): one pattern per line, `#` lines are comments, a leading `!` makes an
/// exception, each pattern is cleaned as a path and a leading `/` dropped; `*`, `?` and
/// `[…]` match within one path segment (fnmatch(3), as Go's `filepath.Match`), `**` matches
/// any number of segments (at the end, at least one), and a pattern that matches a folder
/// matches everything in it. The last pattern that matches a path decides.
public struct DockerignorePatterns: Sendable {
    /// One pattern: its segments and whether it is an exception (`!`).
    struct Pattern: Sendable {
        var segments: [String]
        var isException: Bool
    }

    /// The patterns in file order.
    let patterns: [Pattern]

    /// Reads a `.dockerignore` file's text.
    ///
    /// - Parameter text: The file's text; empty for a context without one.
    public init(text: String) {
        var patterns: [Pattern] = []
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let isException = line.hasPrefix("!")
            if isException { line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces) }
            let segments = Self.cleaned(line)
            guard !segments.isEmpty else { continue }
            patterns.append(Pattern(segments: segments, isException: isException))
        }
        self.patterns = patterns
    }

    /// Whether any pattern could bring back something below an excluded folder: without
    /// exceptions an excluded folder's content need not be listed.
    var hasExceptions: Bool { patterns.contains(where: \.isException) }

    /// Whether the build leaves a context path out.
    ///
    /// - Parameter path: A path relative to the context root, segments separated by `/`.
    /// - Returns: True when the last pattern matching it, or one of its parent folders, is
    ///   not an exception.
    public func excludes(_ path: String) -> Bool {
        excludes(segments: path.split(separator: "/").map(String.init))
    }

    /// Whether the build leaves a context path out, the path given as its segments.
    func excludes(segments: [String]) -> Bool {
        var ancestors = Array(repeating: false, count: patterns.count)
        for count in stride(from: 1, to: segments.count, by: 1) {
            ancestors = verdict(Array(segments[..<count]), ancestors: ancestors).forEntries
        }
        return verdict(segments, ancestors: ancestors).excluded
    }

    /// The verdict on one path of a walk from the context root down, which knows, per pattern,
    /// whether it matched one of the path's parent folders: each pattern is matched once per
    /// path, so a walk stays linear in the number of paths.
    ///
    /// - Parameters:
    ///   - segments: The path's segments.
    ///   - ancestors: Per pattern, whether it matched a parent folder of the path (all false
    ///     at the root's entries); the parent's `forEntries`.
    /// - Returns: Whether the path is left out, and what its own entries inherit.
    func verdict(_ segments: [String], ancestors: [Bool]) -> (excluded: Bool, forEntries: [Bool]) {
        var excluded = false
        var forEntries = ancestors
        for (index, pattern) in patterns.enumerated() {
            let direct = Self.matches(pattern.segments[...], segments[...])
            forEntries[index] = ancestors[index] || direct
            // An inclusion need not count once excluded, nor an exception once included.
            if pattern.isException == excluded && forEntries[index] { excluded = !pattern.isException }
        }
        return (excluded, forEntries)
    }

    /// A path's segments as Go's `filepath.Clean` leaves them, without a leading `/`.
    static func cleaned(_ path: String) -> [String] {
        var segments: [String] = []
        for segment in path.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(String(segment))
            }
        }
        return segments
    }

    /// Whether pattern segments match path segments, `**` standing for any number of them.
    static func matches(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            // A last `**` is a prefix: `docs/**` matches what is in docs, not docs itself.
            if rest.isEmpty { return !path.isEmpty }
            // Bounded by the path's length: each try drops one segment.
            var remaining = path
            while true {
                if matches(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let segment = path.first, segmentMatches(first, segment) else { return false }
        return matches(pattern.dropFirst(), path.dropFirst())
    }

    /// One segment against one pattern segment, with fnmatch(3) (`*`, `?`, `[…]`, `\`).
    static func segmentMatches(_ pattern: String, _ segment: String) -> Bool {
        // A segment without those is itself: no C strings to make. `**` inside a segment is a
        // `*` there.
        guard pattern.utf8.contains(where: { $0 == 0x2A || $0 == 0x3F || $0 == 0x5B || $0 == 0x5C }) else {
            return pattern == segment
        }
        return fnmatch(pattern, segment, 0) == 0
    }
}
