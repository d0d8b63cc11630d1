/// Keeps secrets out of descriptions and debug logs.
public enum Redaction {
    /// Header fields whose values are credentials (RFC 9110 sections 11.6.2 and 11.7.2).
    static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization"]

    /// A header line with the value of `Authorization` or `Proxy-Authorization` replaced by
    /// `***`; other lines unchanged. Keeps the line end.
    static func headerLine(_ line: Substring) -> String {
        guard let colon = line.firstIndex(of: ":") else { return String(line) }
        let name = line[..<colon].trimmingWhitespace().lowercased()
        guard secretHeaderNames.contains(name) else { return String(line) }
        let end = line.hasSuffix("\r\n") || line.hasSuffix("\n") ? "\r\n" : ""
        return "\(line[..<colon]): ***\(end)"
    }

    /// A block of header lines (CR LF separated) with secret values replaced as by
    /// ``headerLine(_:)``. Works on the UTF-8 bytes, as every call's debug log passes here; a
    /// block without a secret comes back as it is.
    static func headerBlock(_ text: String) -> String {
        let bytes = text.utf8
        var result: String?
        var copied = bytes.startIndex
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map(bytes.index(after:)) ?? bytes.endIndex
            if let colon = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")),
                isSecretName(bytes[lineStart..<colon])
            {
                var redacted = result ?? ""
                redacted += text[copied..<lineStart]
                redacted += headerLine(text[lineStart..<lineEnd])
                result = redacted
                copied = lineEnd
            }
            lineStart = lineEnd
        }
        guard var result else { return text }
        result += text[copied...]
        return result
    }

    /// Whether a field name, blanks around it ignored, is one of ``secretHeaderNames`` in any case.
    private static func isSecretName(_ name: Substring.UTF8View) -> Bool {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = name.firstIndex(where: { !blank($0) }), let last = name.lastIndex(where: { !blank($0) })
        else { return false }
        let trimmed = name[first...last]
        return secretHeaderNames.contains { secret in
            secret.utf8.count == trimmed.count
                && zip(secret.utf8, trimmed).allSatisfy { $0 == $1 | (UInt8(ascii: "A")...UInt8(ascii: "Z") ~= $1 ? 0x20 : 0) }
        }
    }

    /// A URL, or proxy text such as `user:password@host:3128`, with the password of its user
    /// info replaced by `***` (`scheme://user:***@host...`: everything from the first `:` of the
    /// user info to the authority's last `@`); text without a password comes back unchanged.
    /// Works on the UTF-8 bytes, as every call's report passes here.
    ///
    /// - Parameter text: the URL or proxy text.
    /// - Returns: the text, safe to show.
    public static func url(_ text: String) -> String {
        passwordRange(in: text).map { masked($0, in: text) } ?? text
    }

    /// Where the password of a URL's (or proxy text's) user info is, as written: after the
    /// first `:` of the user info, up to the authority's last `@`; `nil` without a password.
    ///
    /// - Parameter text: the URL or proxy text.
    /// - Returns: the range of the password, still percent-encoded.
    public static func passwordRange(in text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        let start = authorityStart(of: bytes)
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        return password(in: bytes[start..<(end ?? bytes.endIndex)])
    }

    /// Text that may be a malformed URL or proxy text, for error messages: as ``url(_:)``; and
    /// when that finds no password but an `@` follows a `:` after the scheme anywhere in the
    /// text, everything between them (``loosePasswordRange(in:)``) is replaced too. A password
    /// may hold a raw `#`, `/` or `?`, which ends the authority early for a URL parser
    /// (`http://user:pa#ss@host`); a message about such text must not show it.
    ///
    /// - Parameter text: text given as a URL or proxy, valid or not.
    /// - Returns: the text, safe to show.
    public static func malformedURL(_ text: String) -> String {
        (passwordRange(in: text) ?? loosePasswordRange(in: text)).map { masked($0, in: text) } ?? text
    }

    /// Where a password may be in text that is not a valid URL: after the first `:` that follows
    /// the scheme (or the start) up to the text's last `@`; `nil` when there is no such pair.
    ///
    /// - Parameter text: text given as a URL or proxy.
    /// - Returns: the range of the possible password, as written.
    public static func loosePasswordRange(in text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        return password(in: bytes[authorityStart(of: bytes)...])
    }

    /// After the first `:` up to the last `@` of the bytes, or `nil`.
    private static func password(in authority: Substring.UTF8View) -> Range<String.Index>? {
        guard let at = authority.lastIndex(of: UInt8(ascii: "@")),
            let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return authority.index(after: colon)..<at
    }

    /// The text with `range` replaced by `***`.
    private static func masked(_ range: Range<String.Index>, in text: String) -> String {
        String(text[..<range.lowerBound]) + "***" + String(text[range.upperBound...])
    }

    /// Just after the first `://`, or the start of the text when there is none.
    private static func authorityStart(of bytes: String.UTF8View) -> String.Index {
        var rest = bytes[...]
        while let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
            rest = bytes[bytes.index(after: colon)...]
            if rest.starts(with: "//".utf8) { return bytes.index(colon, offsetBy: 3) }
        }
        return bytes.startIndex
    }
}
