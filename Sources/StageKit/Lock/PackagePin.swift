import DockerfileSyntax

/// One Debian package pinned by a `RUN` of the composition: an `apt-get install` (or `apt
/// install`) operand `NAME=VERSION`, or `NAME:ARCH=VERSION` (apt-get(8), "install").
///
/// Operands without `=`, local `.deb` files and words with a variable reference are not pins
/// (lint's SB003 reports the first kind).
public struct PackagePin: Sendable, Hashable {
    /// The package name, e.g. `curl`.
    public var name: String
    /// The architecture qualifier written after `:`, e.g. `i386`; `nil` for the build's own.
    public var architecture: String?
    /// The version asked for, e.g. `7.88.1-10+deb12u12` (Debian policy 5.6.12: epoch, upstream, revision).
    public var version: String
    /// The operand with quotes removed, e.g. `curl=7.88.1-10+deb12u12`: the lockfile's key.
    public var written: String
    /// The Stagefile or template that writes it, as messages show it.
    public var file: String
    /// That file's absolute path (`lock --update-packages` rewrites the pin there); empty
    /// for a pin not read from a file.
    public var path = ""
    /// Where the operand starts in that file.
    public var location: SourceLocation
    /// True when any part of the operand is quoted or escaped: its text is then not the file's bytes.
    public var isQuoted: Bool
    /// The release its `apt-get install` asks for with `-t`, e.g. `bookworm-backports`.
    public var targetRelease: String?

    /// Reads an operand, or returns `nil` when it is no `NAME=VERSION` pin.
    ///
    /// - Parameters:
    ///   - operand: The operand with quotes removed.
    ///   - file: The file that writes it.
    ///   - location: Where it starts.
    ///   - isQuoted: Whether it was quoted or escaped.
    public init?(operand: String, file: String, location: SourceLocation, isQuoted: Bool) {
        guard let equals = operand.firstIndex(of: "="), !operand.contains("$"), !operand.hasSuffix(".deb") else { return nil }
        var name = String(operand[..<equals])
        let version = String(operand[operand.index(after: equals)...])
        guard !name.isEmpty, !version.isEmpty, !name.contains("/") else { return nil }
        if let colon = name.firstIndex(of: ":") {
            architecture = String(name[name.index(after: colon)...])
            name = String(name[..<colon])
        } else {
            architecture = nil
        }
        self.name = name
        self.version = version
        self.written = operand
        self.file = file
        self.location = location
        self.isQuoted = isQuoted
    }
}
