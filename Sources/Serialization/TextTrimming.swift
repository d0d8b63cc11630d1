extension Character {
    /// HTTP's optional white space (RFC 9110 section 5.6.3, `OWS`): SP or HTAB.
    public var isHTTPWhitespace: Bool { self == " " || self == "\t" }

    /// SP, HTAB, CR or LF (CR LF included): the blanks around a line's content.
    public var isLineWhitespace: Bool { isHTTPWhitespace || self == "\r" || self == "\n" || self == "\r\n" }
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
