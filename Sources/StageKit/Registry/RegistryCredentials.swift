/// A user name and password (or access token) for one registry, which asks for HTTP Basic
/// authentication or sends them to its token service: from `--registry-auth HOST=USER:PASS`,
/// an auth file or a credential helper (``RegistryCredentialStore``). Never printed:
/// ``description`` masks the password.
public struct RegistryCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Reads `USER:PASS`; the password is everything after the first `:`.
    ///
    /// - Parameter text: e.g. `ci:s3cret`.
    /// - Returns: `nil` without a `:`, or with an empty user name or password.
    public init?(parsing text: String) {
        // An empty password would put the secret (a token) where user names are shown.
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex
        else { return nil }
        user = String(text[..<colon])
        password = String(text[text.index(after: colon)...])
    }

    /// The `Authorization` value for Basic authentication (RFC 7617): `Basic ` and the
    /// base64 of `user:password` in UTF-8.
    public var basicAuthorization: String {
        "Basic " + Base64.encode(Array((user + ":" + password).utf8))
    }

    /// `user:***`.
    public var description: String { "\(user):***" }
}

/// Base64 with padding (RFC 4648 section 4).
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for position in 0..<4 {
                if position <= chunk.count {
                    output.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
