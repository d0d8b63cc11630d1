/// An image reference read as Docker reads it: `[DOMAIN/]PATH[:TAG][@DIGEST]`.
///
/// The rules are those of the reference grammar of the distribution project
/// (`reference/reference.go`, `reference/normalize.go`, which `docker pull` and BuildKit use):
/// - The first `/`-separated component is a registry domain when it contains `.` or `:`, is
///   `localhost`, or has an upper-case letter; else the domain is `docker.io` and, for a
///   one-component path, the path gets the `library/` prefix of official images.
///   `index.docker.io` is written `docker.io`.
/// - A domain is a host name (components of letters, digits and inner `-`, joined by `.`),
///   an IPv4 address or a bracketed IPv6 address, with an optional `:PORT`.
/// - The path is lower case: components of `[a-z0-9]` joined by `.`, `_`, `__` or dashes.
///   Domain and path together are at most 255 characters.
/// - A tag is 1 to 128 of `[A-Za-z0-9_.-]`, not starting with `.` or `-`. Without tag and
///   digest, the tag is `latest`.
/// - A digest follows `@` (``Digest``).
/// - A 64-digit hex string alone is refused: it reads as an image ID, not a name.
///
/// The registry HTTP API is reached at ``apiHost``: `registry-1.docker.io` for `docker.io`.
public struct ImageReference: Sendable, Hashable, CustomStringConvertible {
    /// The default registry domain.
    public static let defaultDomain = "docker.io"
    /// The host that serves the registry API for `docker.io`.
    public static let defaultAPIHost = "registry-1.docker.io"

    /// The text as written, e.g. `debian:bookworm-slim`.
    public let written: String
    /// The registry domain with its port, e.g. `docker.io`, `localhost:5000`, `[::1]:5000`.
    public let domain: String
    /// The repository path, e.g. `library/debian`.
    public let path: String
    /// The tag as written; `nil` when none was.
    public let tag: String?
    /// The digest after `@`; `nil` when none was written.
    public let digest: Digest?

    /// Reads a reference.
    ///
    /// - Parameter text: The reference as written in a Dockerfile, e.g. `nginx:1.27`.
    /// - Throws: `ImageReferenceError` naming the rule the text breaks.
    public init(parsing text: String) throws(ImageReferenceError) {
        func fail(_ reason: String) -> ImageReferenceError { ImageReferenceError(reference: text, reason: reason) }
        written = text
        guard !text.isEmpty else { throw fail("an image reference cannot be empty") }
        if text.utf8.count == 64, text.utf8.allSatisfy(Self.isLowerHex) {
            throw fail("a 64-digit hex string is an image ID, not a repository name")
        }
        var rest = Substring(text)
        if let at = rest.firstIndex(of: "@") {
            do {
                digest = try Digest(parsing: String(rest[rest.index(after: at)...]))
            } catch {
                throw fail(error.description)
            }
            rest = rest[..<at]
        } else {
            digest = nil
        }
        let lastSlash = rest.lastIndex(of: "/")
        if let colon = rest.lastIndex(of: ":"), lastSlash.map({ $0 < colon }) ?? true {
            let tag = String(rest[rest.index(after: colon)...])
            guard Self.isValidTag(tag) else {
                throw fail(
                    "invalid tag '\(tag)': a tag is 1 to 128 letters, digits, '_', '.' and '-', not starting with '.' or '-'")
            }
            self.tag = tag
            rest = rest[..<colon]
        } else {
            tag = nil
        }
        guard !rest.isEmpty else { throw fail("the repository name is missing") }

        var domain = Self.defaultDomain
        var path = String(rest)
        if let slash = rest.firstIndex(of: "/") {
            let first = rest[..<slash]
            if first.contains(".") || first.contains(":") || first == "localhost" || first.lowercased() != first {
                domain = String(first)
                path = String(rest[rest.index(after: slash)...])
                guard Self.isValidDomain(domain) else {
                    throw fail(
                        "invalid registry '\(domain)': expected HOST[:PORT] with a host name, IPv4 address or [IPv6 address]")
                }
            }
        }
        if domain == "index.docker.io" { domain = Self.defaultDomain }
        if domain == Self.defaultDomain && !path.contains("/") { path = "library/" + path }
        guard path.lowercased() == path else { throw fail("repository name must be lowercase") }
        guard Self.isValidPath(path) else {
            throw fail(
                "invalid repository name '\(path)': use components of a-z and 0-9 separated by '/', "
                    + "joined inside by '.', '_', '__' or '-'")
        }
        guard domain.utf8.count + 1 + path.utf8.count <= 255 else {
            throw fail("repository name must not be more than 255 characters")
        }
        self.domain = domain
        self.path = path
    }

    /// `DOMAIN/PATH`, e.g. `docker.io/library/debian`.
    public var name: String { domain + "/" + path }

    /// The tag the registry is asked for when the reference has no digest: the tag written,
    /// else `latest`.
    public var effectiveTag: String { tag ?? "latest" }

    /// The host (and port) that serves the registry API: ``defaultAPIHost`` for `docker.io`,
    /// else the domain.
    public var apiHost: String { domain == Self.defaultDomain ? Self.defaultAPIHost : domain }

    /// The full form Docker prints: `docker.io/library/debian:latest`,
    /// `localhost:5000/app@sha256:…`, `name:tag@sha256:…`. Without tag and digest the tag is `latest`.
    public var canonical: String {
        var text = name
        if let tag {
            text += ":" + tag
        } else if digest == nil {
            text += ":latest"
        }
        if let digest { text += "@" + digest.description }
        return text
    }

    /// The reference as written with a digest appended, keeping the tag for readers:
    /// `debian:bookworm-slim@sha256:…`, and `debian:latest@sha256:…` for `debian`. A
    /// reference that already carries a digest is returned as written.
    ///
    /// - Parameter digest: The resolved digest.
    /// - Returns: The pinned reference.
    public func pinned(to digest: Digest) -> String {
        guard self.digest == nil else { return written }
        return written + (tag == nil ? ":latest" : "") + "@" + digest.description
    }

    /// ``canonical``.
    public var description: String { canonical }

    private static func isLowerHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...122).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLowerAlphanumeric(byte) || (65...90).contains(byte)
    }

    /// `[\w][\w.-]{0,127}`.
    static func isValidTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard let first = bytes.first, bytes.count <= 128, isAlphanumeric(first) || first == UInt8(ascii: "_") else {
            return false
        }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }

    /// Path components `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*` joined by `/`.
    static func isValidPath(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { component in
            let bytes = Array(component.utf8)
            guard let first = bytes.first, let last = bytes.last, isLowerAlphanumeric(first), isLowerAlphanumeric(last) else {
                return false
            }
            var index = 0
            while index < bytes.count {
                if isLowerAlphanumeric(bytes[index]) {
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count, !isLowerAlphanumeric(bytes[index]) { index += 1 }
                let separator = String(decoding: bytes[start..<index], as: UTF8.self)
                guard separator == "." || separator == "_" || separator == "__" || separator.allSatisfy({ $0 == "-" }) else {
                    return false
                }
            }
            return true
        }
    }

    /// `(host-name | \[IPv6\])(:[0-9]+)?`, host-name components `[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?` joined by `.`.
    static func isValidDomain(_ domain: String) -> Bool {
        var host = Substring(domain)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let address = host[host.index(after: host.startIndex)..<close]
            guard !address.isEmpty, address.allSatisfy({ $0 == ":" || $0.isHexDigit }) else { return false }
            host = host[host.index(after: close)...]
            if host.isEmpty { return true }
            guard host.first == ":" else { return false }
            let port = host.dropFirst()
            return !port.isEmpty && port.allSatisfy { $0.isASCII && $0.isNumber }
        }
        if let colon = host.firstIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            host = host[..<colon]
        }
        return !host.isEmpty
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { component in
                let bytes = Array(component.utf8)
                guard let first = bytes.first, let last = bytes.last, isAlphanumeric(first), isAlphanumeric(last) else {
                    return false
                }
                return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
    }
}

/// Text that is not an image reference Docker would accept.
public struct ImageReferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reference as written.
    public var reference: String
    /// The rule it breaks.
    public var reason: String

    /// `invalid image reference 'TEXT': REASON`.
    public var description: String { "invalid image reference '\(reference)': \(reason)" }
}
