import Serialization

/// Keeps secrets out of every output: the one rule for what is a secret, applied by structure
/// where the secret stands (a header field's value, a URL's user info, a query parameter's
/// value), never by searching for a secret's text.
///
/// What is a secret:
/// - the value of a header field that carries credentials (``isSecretHeaderName(_:)``):
///   `Authorization`, `Proxy-Authorization` (RFC 9110 sections 11.6.2, 11.7.2), `Cookie`,
///   `Set-Cookie` (RFC 6265), and any field whose name has a `-`/`_`-separated part naming a
///   key, token, secret, password, session, credential, signature or auth (`X-Api-Key`,
///   `X-Auth-Token`, `Private-Token`, `X-Amz-Security-Token`, `X-Registry-Auth`);
/// - the user info of a URL: its password, or all of it without a `:` (a user name alone is a
///   token), in the URL itself and in any URL nested in it (`?next=http://user:pw@…`);
/// - the value of a query parameter that carries credentials (``isSecretQueryName(_:)``):
///   signed-URL signatures and credentials (`X-Amz-Signature`, `X-Amz-Credential`,
///   `X-Goog-Signature`, Azure's `sig`), OAuth's `access_token`, `refresh_token`, `id_token`,
///   `code`, `client_secret`, and any name with a part naming a token, secret, password, key,
///   signature or credential (`api_key`, `apikey`).
///
/// Each is replaced by `***`; the name stays, so a reader sees where the secret was.
public enum Redaction {
    /// The parts of a header field name that make its value a secret.
    static let secretNameParts: Set<String> = [
        "authorization", "cookie", "key", "apikey", "token", "secret", "password", "passwd", "session", "sessionid",
        "credential", "credentials", "signature", "auth",
    ]

    /// The query parameter names whose values are secrets whatever their parts say.
    static let secretQueryNames: Set<String> = ["sig", "code", "auth", "pwd", "pass"]

    /// Whether a header field's value is a credential (see the type's rule): `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, or a name with a part that names a key,
    /// token, secret, password, session, credential, signature or auth, in any case.
    ///
    /// - Parameter name: the field name, e.g. `X-Api-Key`.
    public static func isSecretHeaderName<S: StringProtocol>(_ name: S) -> Bool {
        let lowered = name.lowercased()
        if lowered == "set-cookie" || lowered == "proxy-authorization" { return true }
        return lowered.split(whereSeparator: { $0 == "-" || $0 == "_" }).contains { secretNameParts.contains(String($0)) }
    }

    /// Whether a URL query parameter's value is a credential (see the type's rule).
    ///
    /// - Parameter name: the parameter name as written (percent-encoding not decoded), e.g.
    ///   `X-Amz-Signature`, `access_token`.
    public static func isSecretQueryName<S: StringProtocol>(_ name: S) -> Bool {
        let lowered = name.lowercased()
        if secretQueryNames.contains(lowered) { return true }
        return lowered.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." }).contains { part in
            ["token", "secret", "password", "passwd", "key", "apikey", "signature", "credential", "credentials"].contains(
                String(part))
        }
    }

    /// A header line with a secret value (``isSecretHeaderName(_:)``) replaced by `***`;
    /// other lines unchanged. Keeps the line end.
    static func headerLine(_ line: Substring) -> String {
        guard let colon = line.firstIndex(of: ":") else { return String(line) }
        guard isSecretHeaderName(line[..<colon].trimmingLineWhitespace()) else { return String(line) }
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
                // Strings, not Substrings: appending a Substring is a generic call whose
                // metadata the runtime looks up on first use, a scan of every conformance.
                var redacted = result ?? ""
                redacted += String(text[copied..<lineStart])
                redacted += headerLine(text[lineStart..<lineEnd])
                result = redacted
                copied = lineEnd
            }
            lineStart = lineEnd
        }
        guard var result else { return text }
        result += String(text[copied...])
        return result
    }

    /// Whether a field name, blanks around it ignored, is a secret's (``isSecretHeaderName(_:)``).
    /// Most names hold none of the parts' letters run: a name is made a String only when it
    /// could be one.
    private static func isSecretName(_ name: Substring.UTF8View) -> Bool {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = name.firstIndex(where: { !blank($0) }), let last = name.lastIndex(where: { !blank($0) }),
            name.distance(from: first, to: last) < 128,
            // A field name is a token (RFC 9110 section 5.1): a sentence before a colon is none.
            !name[first...last].contains(where: blank)
        else { return false }
        return isSecretHeaderName(String(decoding: name[first...last], as: UTF8.self))
    }

    /// A URL, or proxy text such as `user:password@host:3128`, with the secret of its user
    /// info replaced by `***` where it stands: the password (`scheme://user:***@host`), or the
    /// whole user info when it has no `:` (`scheme://***@host`: a user name alone is a token);
    /// after its authority, the user info of nested URLs and secret query values too. The host,
    /// the path and other query values are shown as written, even when they hold the same text
    /// as a secret. Works on the UTF-8 bytes.
    ///
    /// - Parameter text: the URL or proxy text.
    /// - Returns: the text, safe to show.
    public static func url(_ text: String) -> String {
        let bytes = text.utf8
        // Without an `@` or a `?` there is no user info and no query: the common case, checked
        // over contiguous bytes.
        if bytes.withContiguousStorageIfAvailable({
            !$0.contains(UInt8(ascii: "@")) && !$0.contains(UInt8(ascii: "?")) && !$0.contains(UInt8(ascii: "#"))
        }) == true {
            return text
        }
        let start = authorityStart(of: bytes)
        let end = authorityEnd(in: bytes[start...])
        let top =
            secret(inUserInfoBefore: bytes[start..<end].lastIndex(of: UInt8(ascii: "@")), from: start, in: text)
            .map { masked($0, in: text) } ?? text
        // What follows the authority: nested URLs' user info and secret query values.
        let topBytes = top.utf8
        let restStart = authorityEnd(in: topBytes[authorityStart(of: topBytes)...])
        let rest = String(top[restStart...])
        guard rest.utf8.contains(UInt8(ascii: "@")) || rest.utf8.contains(UInt8(ascii: "=")) else { return top }
        return String(top[..<restStart]) + queryValues(in: nestedUserInfo(in: rest))
    }

    /// Text that may be a malformed URL or proxy text, for error messages: everything from the
    /// authority's start to the text's last `@` is taken as user info and its secret hidden as
    /// by ``url(_:)``. A password may hold a raw `@`, `#`, `/` or `?`, which ends the
    /// authority early for a URL parser (`http://user:pa/ss@host`); a message about such text
    /// must show none of it.
    ///
    /// - Parameter text: text given as a URL or proxy, valid or not.
    /// - Returns: the text, safe to show.
    public static func malformedURL(_ text: String) -> String {
        let bytes = text.utf8
        let start = authorityStart(of: bytes)
        let top =
            secret(inUserInfoBefore: bytes[start...].lastIndex(of: UInt8(ascii: "@")), from: start, in: text)
            .map { masked($0, in: text) } ?? text
        // Its query and fragment as a URL's: a malformed URL may still hold a token.
        guard top.utf8.contains(UInt8(ascii: "=")) else { return top }
        return queryValues(in: top)
    }

    /// Free text (a message from libcurl or a server, a trace line) with the user-info secret
    /// of every URL in it hidden as by ``url(_:)``, every secret query value (in a URL or a
    /// request line's target) as by ``queryValues(in:)``, and credential header lines as by
    /// ``headerBlock(_:)``. A URL is found by its `://`; its authority ends at white space,
    /// a quote, `<`, `>` or the authority's own end.
    ///
    /// - Parameter text: any text meant for output.
    /// - Returns: the text, safe to show.
    public static func text(_ text: String) -> String {
        let source = authenticatingUser(in: headerBlock(text))
        let withQueries = source.utf8.contains(UInt8(ascii: "=")) ? queryValues(in: source) : source
        return withQueries.utf8.contains(UInt8(ascii: "@")) ? nestedUserInfo(in: withQueries) : withQueries
    }

    /// The text with the user-info secret of every `scheme://…@` in it hidden.
    private static func nestedUserInfo(in source: String) -> String {
        let bytes = Array(source.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: "://".utf8) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            index += 3
            output += "://".utf8
            var end = index
            while end < bytes.count, !endsAuthorityInText(bytes[end]), !"/?#".utf8.contains(bytes[end]) { end += 1 }
            if let at = bytes[index..<end].lastIndex(of: UInt8(ascii: "@")), at > index {
                if let colon = bytes[index..<at].firstIndex(of: UInt8(ascii: ":")) {
                    output += bytes[index...colon]
                    if colon + 1 < at { output += "***".utf8 }
                } else {
                    output += "***".utf8
                }
                output += bytes[at..<end]
            } else {
                output += bytes[index..<end]
            }
            index = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text with the value of every secret query parameter (``isSecretQueryName(_:)``)
    /// hidden: a name after `?`, `&`, `;` or `#` (OAuth's implicit flow puts `access_token` in
    /// the fragment), its percent-encoding decoded, then `=`, then the value up to `&`, `;`,
    /// `#`, white space, a quote or an angle bracket. Another parameter's value that holds a
    /// percent-encoded URL or query (`next=http%3A%2F%2Fuser%3Apw%40host`) is decoded, its
    /// secrets hidden by the same rules, and encoded again.
    static func queryValues(in source: String) -> String {
        let bytes = Array(source.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        let endsValue = { (byte: UInt8) in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#") || endsAuthorityInText(byte)
        }
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            guard
                byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";")
                    || byte == UInt8(ascii: "#")
            else { continue }
            var nameEnd = index
            while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: "="), !endsValue(bytes[nameEnd]), nameEnd - index < 128 {
                nameEnd += 1
            }
            guard nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "="), nameEnd > index else { continue }
            var valueEnd = nameEnd + 1
            while valueEnd < bytes.count, !endsValue(bytes[valueEnd]) { valueEnd += 1 }
            let value = bytes[(nameEnd + 1)..<valueEnd]
            if isSecretQueryName(String(decoding: PercentEncoding.decodedBytes(bytes[index..<nameEnd]), as: UTF8.self)) {
                output += bytes[index...nameEnd]
                if !value.isEmpty { output += "***".utf8 }
                index = valueEnd
            } else if value.contains(UInt8(ascii: "%")), let nested = encodedSecretsHidden(value) {
                output += bytes[index...nameEnd]
                output += nested
                index = valueEnd
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A percent-encoded query value with the secrets of the URL or query it encodes hidden,
    /// encoded again (every byte but unreserved ones and the `*` of `***`); `nil` when it
    /// encodes none.
    private static func encodedSecretsHidden(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        let bytes = PercentEncoding.decodedBytes(value)
        // Each level decodes at least one escape, so nested encodings end.
        guard bytes.count < value.count else { return nil }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let hidden: String
        if decoded.contains("://") {
            hidden = url(decoded)
        } else if decoded.utf8.contains(UInt8(ascii: "=")) {
            hidden = String(queryValues(in: "?" + decoded).dropFirst())
        } else if let inner = encodedSecretsHidden(bytes[...]) {
            // Encoded twice (a nested URL inside a nested URL's query).
            hidden = String(decoding: inner, as: UTF8.self)
        } else {
            return nil
        }
        guard hidden != decoded else { return nil }
        // `***` stays readable.
        return Array(PercentEncoding.encoded(hidden) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "*") }.utf8)
    }

    /// libcurl's trace line `Proxy auth using Basic with user 'NAME'` (and `Server auth ...`)
    /// with the name hidden: a user name given alone in a URL is a token.
    static func authenticatingUser(in text: String) -> String {
        let marker = " with user '"
        // Most text holds no quote at all: a byte scan decides that at once.
        guard text.utf8.contains(UInt8(ascii: "'")), text.utf8.firstRange(of: marker.utf8) != nil else { return text }
        var result = ""
        var rest = Substring(text)
        // Each pass consumes the text up to one marker: bounded by the text's length.
        while let range = rest.firstRange(of: marker) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            guard let close = rest.firstIndex(of: "'") else { break }
            result += "***"
            rest = rest[close...]
        }
        return result + rest
    }

    /// The secret part of the user info that ends at `at`: after its first `:` (the password),
    /// or all of it without a `:`; `nil` when there is no user info or nothing to hide.
    private static func secret(
        inUserInfoBefore at: String.Index?, from start: String.Index, in text: String
    ) -> Range<String.Index>? {
        guard let at else { return nil }
        let userInfo = text.utf8[start..<at]
        guard !userInfo.isEmpty else { return nil }
        guard let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) else { return start..<at }
        let password = text.utf8.index(after: colon)
        return password < at ? password..<at : nil
    }

    /// The first `/`, `?` or `#` of the bytes, or their end.
    private static func authorityEnd(in bytes: Substring.UTF8View) -> String.Index {
        bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
    }

    /// Bytes that end a URL inside free text: white space, quotes and angle brackets.
    private static func endsAuthorityInText(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == 0x7F
    }

    /// The text with `range` replaced by `***`.
    private static func masked(_ range: Range<String.Index>, in text: String) -> String {
        String(text[..<range.lowerBound]) + "***" + String(text[range.upperBound...])
    }

    /// Just after `scheme:` and its slashes when the text starts with a scheme (letters,
    /// digits, `+`, `-`, `.`) followed by `:/` (curl takes one to three slashes), else the start
    /// of the text. Only a scheme at the start counts: a later `://` may be inside a password
    /// (`user:pw://x@proxy`), and taking it would show what comes before.
    private static func authorityStart(of bytes: String.UTF8View) -> String.Index {
        let isSchemeByte = { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default: false
            }
        }
        guard let colon = bytes.firstIndex(where: { !isSchemeByte($0) }), colon > bytes.startIndex,
            bytes[colon] == UInt8(ascii: ":")
        else { return bytes.startIndex }
        var index = bytes.index(after: colon)
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") else { return bytes.startIndex }
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") { index = bytes.index(after: index) }
        return index
    }
}
