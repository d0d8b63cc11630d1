import Serialization

/// One challenge of a `WWW-Authenticate` header (RFC 9110 section 11.6.1), e.g.
/// `Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/debian:pull"`
/// or `Basic realm="Registry Realm"`.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme in lower case: `bearer`, `basic`, …
    public var scheme: String
    /// The parameters, names in lower case, values with quotes and escapes removed.
    public var parameters: [String: String]

    /// Creates a challenge.
    ///
    /// - Parameters:
    ///   - scheme: The scheme, any case.
    ///   - parameters: The parameters.
    public init(scheme: String, parameters: [String: String] = [:]) {
        self.scheme = scheme.lowercased()
        self.parameters = parameters
    }

    /// Reads every challenge of a header value: `scheme [param=value, ...]`, challenges
    /// separated by commas; a value is a token or a quoted string (RFC 9110 section 5.6.4).
    /// A token68 credential (`Negotiate abc==`) is kept under the parameter name `""`.
    ///
    /// - Parameter header: The header value.
    /// - Returns: The challenges in order; none for an empty or malformed value.
    public static func parse(_ header: String) -> [AuthenticationChallenge] {
        var scanner = Scanner(Array(header.unicodeScalars))
        var challenges: [AuthenticationChallenge] = []
        while true {
            scanner.skip { $0 == " " || $0 == "\t" || $0 == "," }
            guard let scheme = scanner.token() else { break }
            var challenge = AuthenticationChallenge(scheme: scheme)
            // Parameters until the next scheme: a token followed by white space and no `=`.
            while true {
                let mark = scanner.index
                scanner.skip { $0 == " " || $0 == "\t" || $0 == "," }
                guard let name = scanner.token() else {
                    scanner.index = mark
                    break
                }
                scanner.skip { $0 == " " || $0 == "\t" }
                guard scanner.peek == "=" else {
                    scanner.index = mark
                    break
                }
                scanner.index += 1
                // token68: `=` padding with no value after it.
                scanner.skip { $0 == " " || $0 == "\t" }
                let value = scanner.peek == "\"" ? scanner.quotedString() : scanner.token()
                if let value {
                    challenge.parameters[name.lowercased()] = value
                } else {
                    challenge.parameters[""] = name + "="
                }
            }
            challenges.append(challenge)
        }
        return challenges
    }

    private struct Scanner {
        var scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
            while let scalar = peek, predicate(scalar) { index += 1 }
        }

        /// `tchar`s of RFC 9110 section 5.6.2 (and `/`, which token68 allows).
        mutating func token() -> String? {
            let start = index
            skip { $0.isASCII && (HTTPToken.isTokenCharacter(UInt8($0.value)) || $0 == "/") }
            guard index > start else { return nil }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }

        mutating func quotedString() -> String? {
            index += 1
            var value = String.UnicodeScalarView()
            while let scalar = peek {
                index += 1
                if scalar == "\"" { return String(value) }
                if scalar == "\\", let next = peek {
                    index += 1
                    value.append(next)
                } else {
                    value.append(scalar)
                }
            }
            return nil
        }
    }
}
