import Foundation

/// The entries of a Debian `Packages` index for some package names: each paragraph's
/// `Package`, `Version`, `Architecture`, `Filename` and `SHA256` fields.
///
/// An index holds tens of thousands of paragraphs (bookworm's main for amd64: about 63,000,
/// 45 MB), so it is read as bytes, one line at a time, and only the paragraphs of the wanted
/// names are kept.
///
/// Source: Debian wiki, "DebianRepository/Format", section "Packages Indices"; Debian policy
/// 5.1 (control file syntax: paragraphs separated by blank lines, `Field: value`).
public struct PackagesIndex: Sendable {
    /// One binary package of the index.
    public struct Entry: Sendable, Hashable {
        /// `Package`, e.g. `curl`.
        public var name: String
        /// `Version`, e.g. `7.88.1-10+deb12u12`.
        public var version: String
        /// `Architecture`, e.g. `amd64` or `all`.
        public var architecture: String
        /// `Filename`: the `.deb`'s path from the archive's root, e.g. `pool/main/c/curl/curl_7.88.1-10+deb12u12_amd64.deb`.
        public var filename: String
        /// `SHA256`: the `.deb`'s lower-case hex SHA-256.
        public var sha256: String
    }

    /// The entries of the wanted names, in index order.
    public var entries: [Entry]

    /// Reads the paragraphs of some packages from an index.
    ///
    /// - Parameters:
    ///   - text: The decompressed `Packages` file.
    ///   - names: The package names to keep.
    public init(parsing text: [UInt8], keeping names: Set<String>) {
        var entries: [Entry] = []
        var fields: [String: String] = [:]
        var keeps = false
        func finish() {
            if keeps, let name = fields["Package"], let version = fields["Version"], let architecture = fields["Architecture"],
                let filename = fields["Filename"], let sha256 = fields["SHA256"]
            {
                entries.append(
                    Entry(
                        name: name, version: version, architecture: architecture, filename: filename, sha256: sha256.lowercased())
                )
            }
            fields = [:]
            keeps = false
        }
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var start = 0
            while start < count {
                let end: Int
                if let found = memchr(base + start, 0x0A, count - start) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                } else {
                    end = count
                }
                defer { start = end + 1 }
                if end == start {
                    finish()
                    continue
                }
                let first = base[start]
                // Continuation lines (space or tab) belong to fields no entry keeps.
                if first == 0x20 || first == 0x09 { continue }
                let line = UnsafeBufferPointer(start: base + start, count: end - start)
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let isPackage = colon == 7 && Self.starts(line, with: "Package")
                if !isPackage && !keeps { continue }
                let name = String(decoding: line[..<colon], as: UTF8.self)
                var valueStart = colon + 1
                while valueStart < line.count, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
                var valueEnd = line.count
                while valueEnd > valueStart, line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x0D { valueEnd -= 1 }
                let value = String(decoding: line[valueStart..<valueEnd], as: UTF8.self)
                if isPackage {
                    finish()
                    keeps = names.contains(value)
                }
                if keeps { fields[name] = value }
            }
        }
        finish()
        self.entries = entries
    }

    private static func starts(_ line: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        guard line.count >= prefix.utf8CodeUnitCount else { return false }
        for index in 0..<prefix.utf8CodeUnitCount where line[index] != prefix.utf8Start[index] { return false }
        return true
    }
}
