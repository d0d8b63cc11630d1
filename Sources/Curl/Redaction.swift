/// Keeps secrets out of descriptions and debug logs.
enum Redaction {
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

    /// A block of header lines (CR LF separated) with secret values replaced.
    static func headerBlock(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            // "\r\n" is one Character in Swift: look for either line end.
            let end = rest.firstIndex { $0 == "\n" || $0 == "\r\n" }.map { rest.index(after: $0) } ?? rest.endIndex
            result += headerLine(rest[..<end])
            rest = rest[end...]
        }
        return result
    }

    /// A URL string with the password of its user info replaced by `***`
    /// (`scheme://user:***@host...`); strings without a password unchanged.
    static func url(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let afterScheme = text[authorityStart...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
