/// Path arithmetic on `/`-separated POSIX paths, done on text so that no current directory
/// or environment enters a result.
public enum Paths {
    /// Joins a relative path to a base directory; an absolute `path` is returned as is.
    ///
    /// - Parameters:
    ///   - path: An absolute or relative path.
    ///   - directory: An absolute directory.
    /// - Returns: The absolute path with `.` and `..` components resolved.
    public static func absolute(_ path: String, from directory: String) -> String {
        normalized(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    /// Removes empty, `.` and `..` components.
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The normal form, `/` for the root.
    public static func normalized(_ path: String) -> String {
        // Most paths are already normal (a context walk asks for every file's folder).
        if isNormal(path) { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether an absolute path is in normal form: `/`, or `/` and components that are not
    /// empty, `.` or `..`.
    private static func isNormal(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return false }
        guard bytes.count > 1 else { return true }
        // Bytes since the last slash; `1` and `2` count dots only while the component is all dots.
        var length = 0
        var dots = 0
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                guard length > 0, length != dots || dots > 2 else { return false }
                length = 0
                dots = 0
            } else {
                if byte == UInt8(ascii: "."), dots == length { dots += 1 }
                length += 1
            }
        }
        return length > 0 && (length != dots || dots > 2)
    }

    /// The path of `path` as seen from `directory`, e.g. `../../Stages/debian.Dockerfile`.
    ///
    /// - Parameters:
    ///   - path: An absolute path.
    ///   - directory: An absolute directory.
    /// - Returns: A relative path; `.` when they are the same.
    public static func relative(_ path: String, from directory: String) -> String {
        let target = normalized(path).split(separator: "/")
        let base = normalized(directory).split(separator: "/")
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The directory part of a path: `/a/b` for `/a/b/c`.
    ///
    /// - Parameter path: An absolute path.
    public static func directory(of path: String) -> String {
        let normal = normalized(path)
        guard let slash = normal.lastIndex(of: "/"), slash != normal.startIndex else { return "/" }
        return String(normal[..<slash])
    }

    /// The last component of a path: `c` for `/a/b/c`.
    ///
    /// - Parameter path: A path.
    public static func fileName(of path: String) -> String {
        let bytes = path.utf8
        guard let end = bytes.lastIndex(where: { $0 != UInt8(ascii: "/") }) else { return path }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        return String(path[start...end])
    }

    /// A path as messages show it: relative to `directory` when it lies inside it, absolute
    /// otherwise (a chain of `../` helps nobody find a file).
    ///
    /// - Parameters:
    ///   - path: An absolute path.
    ///   - directory: The current directory.
    public static func shown(_ path: String, from directory: String) -> String {
        let relative = relative(path, from: directory)
        return relative.hasPrefix("../") || relative == ".." ? normalized(path) : relative
    }
}
