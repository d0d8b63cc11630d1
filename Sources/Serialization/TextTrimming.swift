extension Character {
    /// HTTP's optional white space (RFC 9110 section 5.6.3, `OWS`): SP or HTAB.
    public var isHTTPWhitespace: Bool { self == " " || self == "\t" }

    /// SP, HTAB, CR or LF (CR LF included): the blanks around a line's content.
    public var isLineWhitespace: Bool { isHTTPWhitespace || self == "\r" || self == "\n" || self == "\r\n" }
}

extension UInt8 {
    /// SP or HTAB as a byte: HTTP's optional white space (RFC 9110 section 5.6.3, `OWS`).
    @inlinable public var isHTTPWhitespace: Bool { self == 0x20 || self == 0x09 }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing SP and HTAB: a header field's value as RFC 9110
    /// reads it (section 5.5), for a parser that works on bytes.
    @inlinable public func trimmingHTTPWhitespace() -> ArraySlice<UInt8> {
        var value = self
        while let first = value.first, first.isHTTPWhitespace { value = value.dropFirst() }
        while let last = value.last, last.isHTTPWhitespace { value = value.dropLast() }
        return value
    }
}

extension StringProtocol {
    /// The text without leading and trailing SP and HTAB: a header field's value or a list
    /// element as RFC 9110 reads them (section 5.5, "leading and trailing OWS is excluded").
    public func trimmingHTTPWhitespace() -> String { trimming(while: \.isHTTPWhitespace) }

    /// The text without leading and trailing SP, HTAB, CR and LF: a line as libcurl or a
    /// file hands it over.
    public func trimmingLineWhitespace() -> String { trimming(while: \.isLineWhitespace) }

    private func trimming(while isBlank: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
