/// Checks the OpenPGP signature of an apt archive's clearsigned `InRelease` file against the
/// archive's keyring and hands back the text that was signed: the one door through which
/// StageKit trusts an archive, so the CLI chooses the checker (gpgv) and its deadline.
///
/// Source: Debian wiki, "DebianRepository/Format", section "InRelease"; RFC 4880 section 7
/// (cleartext signature framework).
public protocol ArchiveSignatureCheck: Sendable {
    /// Verifies a clearsigned file.
    ///
    /// - Parameters:
    ///   - signed: The `InRelease` file as served.
    ///   - keyring: The keys it must be signed with.
    /// - Returns: The signed text as the checker verified it (dash-escaping removed), never the
    ///   unverified bytes.
    /// - Throws: `ArchiveSignatureError` when no good signature by a key of the keyring covers
    ///   it, the keyring cannot be read, or the checker failed or ran out of time.
    func verifiedText(of signed: [UInt8], keyring: AptKeyring) throws(ArchiveSignatureError) -> [UInt8]
}

/// An `InRelease` file whose signature did not check out.
public struct ArchiveSignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the checker said, e.g. gpgv's `BAD signature from …`.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameter reason: What the checker said.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
