import Foundation

/// A suite's `Release` file (the signed text of its `InRelease`): which suite it is, when it
/// was made, and the SHA-256 and size of every index file it lists.
///
/// Source: Debian wiki, "DebianRepository/Format", section "Release files" (fields `Suite`,
/// `Codename`, `Date`, `SHA256`; deb822 control syntax: `Field: value`, continuation lines
/// begin with a space).
public struct ReleaseFile: Sendable, Hashable {
    /// One index file of the suite.
    public struct IndexFile: Sendable, Hashable {
        /// Its lower-case hex SHA-256, 64 characters.
        public var sha256: String
        /// Its size in bytes.
        public var size: Int
    }

    /// `Suite`, e.g. `oldstable-updates`.
    public var suite: String?
    /// `Codename`, e.g. `bookworm-updates`.
    public var codename: String?
    /// `Date`, as written (RFC 2822 form in UTC).
    public var date: String?
    /// The files of the `SHA256` field by path relative to the suite's folder, e.g.
    /// `main/binary-amd64/Packages.xz`.
    public var files: [String: IndexFile]

    /// Reads a Release text.
    ///
    /// - Parameter text: The signed text of `InRelease`.
    /// - Throws: `PackageResolutionError` when it has no `SHA256` field or a malformed line in it.
    public init(parsing text: [UInt8]) throws(PackageResolutionError) {
        var fields: [String: String] = [:]
        var files: [String: IndexFile] = [:]
        var current: String?
        for rawLine in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = String(decoding: rawLine, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                guard current == "SHA256" else { continue }
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 3, parts[0].count == 64, let size = Int(parts[1]) else {
                    throw PackageResolutionError("a malformed SHA256 line in a Release file: \(line)")
                }
                files[String(parts[2])] = IndexFile(sha256: parts[0].lowercased(), size: size)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                current = nil
                continue
            }
            let name = String(line[..<colon])
            current = name
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard !files.isEmpty else { throw PackageResolutionError("a Release file without a SHA256 field") }
        suite = fields["Suite"]
        codename = fields["Codename"]
        date = fields["Date"]
        self.files = files
    }
}
