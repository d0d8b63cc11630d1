/// One response's status line and header fields, as libcurl passed them to
/// `CURLOPT_HEADERFUNCTION`.
///
/// A transfer can see several: a proxy's answer to CONNECT (when tunnelling), interim `1xx`
/// responses, then the final response.
public struct ResponseHead: Sendable, Equatable {
    /// The status line without CR LF, e.g. `"HTTP/1.1 200 OK"` or `"HTTP/2 404"`.
    public var statusLine: String
    /// The header fields in order.
    public var fields: [HeaderField]

    /// A head.
    ///
    /// - Parameters:
    ///   - statusLine: the status line without CR LF.
    ///   - fields: the header fields in order.
    public init(statusLine: String, fields: [HeaderField] = []) {
        self.statusLine = statusLine
        self.fields = fields
    }

    /// The three-digit status code of ``statusLine`` (RFC 9112 section 4), or `0` when the line
    /// has none.
    public var statusCode: Int {
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[1].count == 3, let code = Int(parts[1]) else { return 0 }
        return code
    }

    /// The value of the first field named `name`, compared case-insensitively (RFC 9110
    /// section 5.1), or `nil`.
    ///
    /// - Parameter name: a field name, e.g. `"content-type"`.
    /// - Returns: the field's value, or `nil` when no field has that name.
    public func value(for name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }
}
