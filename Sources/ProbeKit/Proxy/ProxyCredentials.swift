import Serialization

/// The user name and password for a proxy, from a proxy URL's user info, percent-decoded
/// (RFC 3986 section 3.2.1; curl passes them as `CURLOPT_PROXYUSERNAME`/`CURLOPT_PROXYPASSWORD`).
///
/// The password never appears in ``description``, `debugDescription` or a mirror (`dump`).
public struct ProxyCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The user name, decoded; may be empty (`http://:secret@proxy`).
    public var user: String
    /// The password, decoded; `nil` when the user info has no `:` (`http://user@proxy`), which
    /// curl sends as an empty password.
    public var password: String?

    /// Credentials.
    ///
    /// - Parameters:
    ///   - user: the user name, not percent-encoded.
    ///   - password: the password, not percent-encoded, or `nil` for none.
    public init(user: String, password: String?) {
        self.user = user
        self.password = password
    }

    /// `"user:***"`; `"***"` without a password, since a user name alone is a token (an API
    /// key as user info is common); the user name as ``shownUser``.
    public var description: String { password == nil ? "***" : "\(shownUser):***" }

    /// The user name percent-encoded as user info (RFC 3986 section 3.2.1): a name that decodes
    /// to `alice:secret` shows as `alice%3Asecret`, never as if it held a password.
    public var shownUser: String { PercentEncoding.encoded(user, keeping: PercentEncoding.isUserInfoAllowed) }

    /// The user as messages name it: ``shownUser``, or `***` for a user name without a
    /// password (a token).
    public var shownName: String { password == nil ? "***" : shownUser }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the user only, so `dump` and reflection never show the password.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": password == nil ? "nil" : "***"]) }
}
