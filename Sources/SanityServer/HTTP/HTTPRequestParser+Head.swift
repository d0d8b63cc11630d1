import Serialization

extension HTTPRequestParser {
    /// Parses a complete head: request line, field lines and the empty line that ends them.
    ///
    /// - Parameters:
    ///   - bytes: From the request line's first byte through the empty line.
    /// - Returns: The head with its framing decided (RFC 9112 section 6.3).
    /// - Throws: ``HTTPRequestError`` for any rule of RFC 9112 sections 2 to 6 that it breaks.
    func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> RequestHead {
        // Line by line, as they come: the request line, the field lines, and last the empty line
        // that ends the head.
        var head: RequestHead?
        var position = 0
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == ASCII.lineFeed else {
                index += 1
                continue
            }
            var line = bytes[lineStart..<index]
            if line.last == ASCII.carriageReturn { line = line.dropLast() }
            if line.contains(ASCII.carriageReturn) {
                throw head == nil ? .malformedRequestLine("bare CR") : .malformedFieldLine("bare CR")
            }
            lineStart = index + 1
            index += 1
            guard head != nil else {
                head = try Self.parseRequestLine(line)
                continue
            }
            if line.isEmpty && lineStart == bytes.endIndex { break }
            if let first = line.first, first.isHTTPWhitespace {
                if position == 0 { throw .malformedFieldLine("whitespace between the request line and the first field") }
                throw .obsoleteLineFolding
            }
            head?.fields.append(try Self.parseFieldLine(line))
            position += 1
        }
        guard var head else { throw .malformedRequestLine("empty") }
        try decideFraming(&head)
        return head
    }

    /// Parses `method SP request-target SP HTTP-version` (RFC 9112 section 3).
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> RequestHead {
        let parts = line.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformedRequestLine("expected method, target and version separated by single spaces")
        }
        let method = parts[0]
        let target = parts[1]
        let versionBytes = parts[2]
        guard !method.isEmpty, method.allSatisfy(HTTPToken.isTokenCharacter) else {
            throw .malformedRequestLine("method is not a token")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformedRequestLine("request target is empty or has characters outside visible ASCII")
        }
        let version = try parseVersion(versionBytes)
        let methodText = String(decoding: method, as: UTF8.self)
        let targetText = String(decoding: target, as: UTF8.self)
        try checkTargetForm(targetText, method: methodText)
        return RequestHead(
            method: methodText, target: targetText, version: version, fields: [], framing: .none,
            expectsContinue: false)
    }

    /// Parses `HTTP-version = "HTTP" "/" DIGIT "." DIGIT` (RFC 9112 section 2.3), case-sensitive.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPVersion {
        let text = Array(bytes)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), isDigit(text[5]), text[6] == UInt8(ascii: "."),
            isDigit(text[7])
        else {
            throw .malformedRequestLine("version is not HTTP/DIGIT.DIGIT")
        }
        let version = HTTPVersion(major: Int(text[5] - 0x30), minor: Int(text[7] - 0x30))
        guard version.major == 1 else { throw .unsupportedVersion(version.description) }
        return version
    }

    /// Checks the four request-target forms (RFC 9112 section 3.2): origin-form and absolute-form
    /// for any method, authority-form only with CONNECT, asterisk-form only with OPTIONS.
    static func checkTargetForm(_ target: String, method: String) throws(HTTPRequestError) {
        if method == "CONNECT" {
            guard !target.hasPrefix("/"), target.contains(":"), !target.contains("/") else {
                throw .malformedRequestLine("CONNECT needs an authority-form target host:port")
            }
            return
        }
        if target == "*" {
            guard method == "OPTIONS" else { throw .malformedRequestLine("asterisk-form target is only for OPTIONS") }
            return
        }
        if target.hasPrefix("/") { return }
        guard let authority = RequestTarget.authority(ofAbsoluteForm: target) else {
            throw .malformedRequestLine("request target must start with / or be an absolute URI")
        }
        // RFC 9110 section 4.2.4: userinfo in an http(s) URI is an error; section 4.2.1: an empty
        // host is invalid. The authority is `uri-host [ ":" port ]`, as Host is (nginx refuses
        // `http://@@/` too).
        guard !authority.isEmpty, isValidHost(authority) else {
            throw .malformedRequestLine("the absolute URI's authority '\(authority)' is not uri-host [ \":\" port ]")
        }
    }

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 section 5).
    ///
    /// - Parameters:
    ///   - line: One field line without its line ending.
    /// - Returns: The field with its name as sent and its value trimmed.
    /// - Throws: ``HTTPRequestError/malformedFieldLine(_:)``.
    static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPField {
        guard let colon = line.firstIndex(of: ASCII.colon) else { throw .malformedFieldLine("no colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty else { throw .malformedFieldLine("empty field name") }
        guard name.allSatisfy(HTTPToken.isTokenCharacter) else {
            if let last = name.last, last.isHTTPWhitespace {
                throw .malformedFieldLine("whitespace between field name and colon")
            }
            throw .malformedFieldLine("field name is not a token")
        }
        let value = line[(colon + 1)...].trimmingHTTPWhitespace()
        guard value.allSatisfy(HTTPToken.isFieldValueCharacter) else {
            throw .malformedFieldLine("control character in the value of \(String(decoding: name, as: UTF8.self))")
        }
        return HTTPField(name: String(decoding: name, as: UTF8.self), value: ASCII.string(value))
    }

    /// Whether a `Host` value is `uri-host [ ":" port ]` (RFC 9110 section 7.2, RFC 3986
    /// section 3.2.2): an IP literal in brackets, or a reg-name of unreserved characters,
    /// percent-encodings and sub-delims (an IPv4 address is one too), then an optional port of
    /// digits. Empty is valid: a target without an authority sends an empty Host.
    static func isValidHost(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            // IPv6address or IPvFuture: hex digits, colons and dots; "v" and the IPvFuture characters.
            guard !literal.isEmpty,
                literal.allSatisfy({ ASCII.isHostCharacter($0) || $0 == UInt8(ascii: ":") })
            else { return false }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            var index = bytes.startIndex
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    let first = bytes.index(after: index)
                    guard first < end, bytes.index(after: first) < end,
                        HexDigit.value(of: bytes[first]) != nil, HexDigit.value(of: bytes[bytes.index(after: first)]) != nil
                    else { return false }
                    index = bytes.index(first, offsetBy: 2)
                    continue
                }
                guard ASCII.isHostCharacter(byte) else { return false }
                index = bytes.index(after: index)
            }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        guard colon == UInt8(ascii: ":") else { return false }
        return bytes.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Decides how the body is framed (RFC 9112 section 6.3), checks `Host` (section 3.2) and
    /// `Expect` (RFC 9110 section 10.1.1).
    func decideFraming(_ head: inout RequestHead) throws(HTTPRequestError) {
        var hostCount = 0
        var hostValue = ""
        var lengths: [String] = []
        var codings: [String] = []
        var sawTransferEncoding = false
        var expectations: [String] = []
        for field in head.fields {
            let name = field.name.utf8
            if ASCII.bytes(name, equalLowercase: "host") {
                hostCount += 1
                hostValue = field.value
            } else if ASCII.bytes(name, equalLowercase: "content-length") {
                lengths.append(
                    contentsOf: field.value.split(separator: ",", omittingEmptySubsequences: false).map {
                        $0.trimmingHTTPWhitespace()
                    })
            } else if ASCII.bytes(name, equalLowercase: "transfer-encoding") {
                sawTransferEncoding = true
                codings.append(contentsOf: ASCII.listElements(field.value))
            } else if ASCII.bytes(name, equalLowercase: "expect") {
                expectations.append(contentsOf: ASCII.listElements(field.value))
            }
        }
        if hostCount > 1 { throw .invalidHost("Host is sent \(hostCount) times") }
        if hostCount == 0 && head.version.minor >= 1 { throw .invalidHost("Host is missing from an HTTP/1.1 request") }
        if hostCount == 1 && !Self.isValidHost(hostValue) {
            throw .invalidHost("'\(hostValue)' is not uri-host [ \":\" port ]")
        }

        if sawTransferEncoding {
            if head.version.minor == 0 { throw .invalidFraming("Transfer-Encoding in an HTTP/1.0 request") }
            if !lengths.isEmpty { throw .invalidFraming("both Transfer-Encoding and Content-Length") }
            if let unknown = codings.first(where: { $0.lowercased() != "chunked" }) {
                throw .unsupportedTransferCoding(unknown)
            }
            if codings.isEmpty { throw .invalidFraming("empty Transfer-Encoding") }
            if codings.count > 1 { throw .invalidFraming("chunked applied more than once") }
            head.framing = .chunked
        } else if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }) else { throw .invalidContentLength(lengths.joined(separator: ", ")) }
            guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw .invalidContentLength(first) }
            let digits = first.drop { $0 == "0" }
            guard digits.count <= 18, let length = Int(digits.isEmpty ? "0" : String(digits)) else {
                throw .contentTooLarge(limit: maxBodyBytes)
            }
            head.framing = length == 0 ? .none : .contentLength(length)
        }

        if head.version.minor >= 1 {
            for expectation in expectations {
                guard expectation.lowercased() == "100-continue" else { throw .unsupportedExpectation(expectation) }
                head.expectsContinue = true
            }
        }
    }
}
