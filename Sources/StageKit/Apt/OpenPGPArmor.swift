import Foundation

/// OpenPGP's ASCII armor (RFC 4880 section 6.2; RFC 9580 section 6.2): a public key as
/// repositories publish it (`docker.asc`, `nodesource.gpg.key`), turned into the binary packets
/// a keyring file holds, as `gpg --dearmor` does.
public enum OpenPGPArmor {
    /// The binary packets of an armored public key block; `nil` for text that is not one.
    ///
    /// - Parameter text: The file's bytes: `-----BEGIN PGP PUBLIC KEY BLOCK-----`, armor
    ///   headers, a blank line, base64 lines, an optional `=` checksum line, the end line.
    public static func publicKey(_ text: [UInt8]) -> [UInt8]? {
        let lines = String(decoding: text, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingLineWhitespace() }
        guard let begin = lines.firstIndex(of: "-----BEGIN PGP PUBLIC KEY BLOCK-----"),
            let end = lines[begin...].firstIndex(of: "-----END PGP PUBLIC KEY BLOCK-----")
        else { return nil }
        // Armor headers ("Version: …") run to the first blank line; without one, data starts at once.
        var start = begin + 1
        if let blank = lines[start..<end].firstIndex(of: "") { start = blank + 1 }
        let body = lines[start..<end].filter { !$0.isEmpty && !$0.hasPrefix("=") }.joined()
        guard let data = Data(base64Encoded: body), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// Whether bytes start like an armored block, after any leading white space.
    public static func isArmored(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self).drop { $0.isWhitespace }
        return text.hasPrefix("-----BEGIN PGP")
    }
}
