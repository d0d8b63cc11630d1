/// RFC 3986 percent-encoding (section 2.1): a byte written as `%` and two uppercase hex digits.
///
/// Written on UTF-8 bytes rather than with Foundation's `addingPercentEncoding`: a probe's
/// start-up is measured against curl's, and Foundation's version starts CoreFoundation's string
/// and character-set machinery for it. The parameters are concrete types, not generic ones: a
/// generic function called from another module instantiates its metadata at run time, which
/// costs a scan of every protocol conformance in the binary on its first call.
public enum PercentEncoding {
    /// The bytes an RFC 3986 *unreserved* character is (section 2.3): `A`-`Z`, `a`-`z`,
    /// `0`-`9`, `-`, `.`, `_` and `~`.
    ///
    /// - Parameter byte: One UTF-8 byte.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The bytes a user-info character may be unencoded (RFC 3986 section 3.2.1): unreserved
    /// characters and the sub-delimiters `!$&'()*+,;=`; not `:`, which ends the user name.
    ///
    /// - Parameter byte: One UTF-8 byte.
    public static func isUserInfoAllowed(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=".utf8.contains(byte)
    }

    /// The text with every UTF-8 byte that `keeps` refuses written as `%HH`.
    ///
    /// - Parameters:
    ///   - text: Any text; each of its characters is encoded as its UTF-8 bytes.
    ///   - keeps: Whether a byte stays as it is, e.g. ``isUnreserved(_:)``; only ASCII bytes
    ///     may stay, so a result is always ASCII when `keeps` refuses bytes of 0x80 and above.
    /// - Returns: The encoded text: `a b` with ``isUnreserved(_:)`` is `a%20b`.
    public static func encoded(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte < 0x80 && keeps(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// A URL as written, with only what may not appear raw in its path, query and fragment
    /// encoded: every byte outside RFC 3986's unreserved and reserved characters (section 2:
    /// `:/?#[]@!$&'()*+,;=`), such as a space, `"`, `|`, `{`, `}`, `^` or a non-ASCII letter,
    /// becomes `%HH`; a `%` followed by two hex digits is an escape already and stays, so `%22`
    /// never becomes `%2522` (another URL). A `%` without two hex digits after it is encoded.
    /// Go's `url.Parse`, which blackbox_exporter uses, keeps existing escapes the same way. The
    /// scheme and authority (`scheme://user@host:port`, up to the first `/`, `?` or `#` after
    /// `//`) stay as written: a `%` there is the host's or zone id's own (RFC 6874 `%25eth0`,
    /// libcurl's `%eth0`), and a host that needs encoding is no host.
    ///
    /// - Parameter url: URL text.
    /// - Returns: The text to send: `/e%20cho/a|b` is `/e%20cho/a%7Cb`.
    public static func encodingWhatMustBe(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        let separator = Array("://".utf8)
        if let colon = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
            start = bytes[(colon + 3)...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
        }
        var encoded = Array(bytes[..<start])
        encoded.reserveCapacity(bytes.count)
        for index in start..<bytes.count {
            let byte = bytes[index]
            let isEscape =
                byte == UInt8(ascii: "%") && index + 2 < bytes.count && HexDigit.value(of: bytes[index + 1]) != nil
                && HexDigit.value(of: bytes[index + 2]) != nil
            if isEscape || (byte < 0x80 && (isUnreserved(byte) || ":/?#[]@!$&'()*+,;=".utf8.contains(byte))) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes of `text` with every `%HH` (either case of hex digit) decoded; a `%` without
    /// two hex digits after it stays as it is, as curl's `Curl_urldecode` leaves it.
    ///
    /// - Parameter text: Percent-encoded text.
    /// - Returns: The decoded bytes, which need not be UTF-8.
    public static func decodedBytes(_ text: Substring) -> [UInt8] {
        decodedBytes(Array(text.utf8)[...])
    }

    /// A query's name or value as an HTML form encodes it (`application/x-www-form-urlencoded`,
    /// WHATWG URL section 5.1, Go's `url.QueryUnescape`): `+` is a space, then every `%HH` is
    /// decoded; a broken escape stays as sent (where Go drops the whole pair). The one reading
    /// of query parameters for the exporter and the sanity server.
    ///
    /// - Parameter encoded: The encoded bytes, e.g. `a+b%2Fc`.
    /// - Returns: The decoded bytes, e.g. `a b/c`; they need not be UTF-8.
    public static func formDecodedBytes(_ encoded: ArraySlice<UInt8>) -> [UInt8] {
        decodedBytes(encoded.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }[...])
    }

    /// Every field of a query or form body (`a=1&b=x+y`) in order, each name and value decoded
    /// by ``formDecodedBytes(_:)``; an empty value for a name without `=`, no field for an empty
    /// pair (`a=1&&b=2`). The one split of a query for the exporter and the sanity server.
    ///
    /// - Parameter encoded: The encoded fields, without the `?`.
    /// - Returns: The decoded bytes of each name and value, e.g. `[("a", "1"), ("b", "x y")]`.
    public static func formPairs(_ encoded: ArraySlice<UInt8>) -> [(name: [UInt8], value: [UInt8])] {
        encoded.split(separator: UInt8(ascii: "&")).map { pair in
            let halves = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (formDecodedBytes(halves[0]), halves.count == 2 ? formDecodedBytes(halves[1]) : [])
        }
    }

    /// The fields of a query or form body (``formPairs(_:)``) read as UTF-8: the first of each
    /// name.
    ///
    /// - Parameter text: The encoded fields, without the `?`.
    /// - Returns: Values by name, e.g. `["a": "1", "b": "x y"]`.
    public static func formFields(_ text: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in formPairs(Array(text.utf8)[...]) {
            let key = String(decoding: name, as: UTF8.self)
            if fields[key] == nil { fields[key] = String(decoding: value, as: UTF8.self) }
        }
        return fields
    }

    /// The bytes with every `%HH` decoded, as ``decodedBytes(_:)-(Substring)`` decodes text.
    ///
    /// - Parameter encoded: Percent-encoded bytes.
    /// - Returns: The decoded bytes.
    public static func decodedBytes(_ encoded: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            if encoded[index] == UInt8(ascii: "%"), index + 2 < encoded.endIndex,
                let high = HexDigit.value(of: encoded[index + 1]), let low = HexDigit.value(of: encoded[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(encoded[index])
                index += 1
            }
        }
        return bytes
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
