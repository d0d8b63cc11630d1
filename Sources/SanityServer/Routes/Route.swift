/// One route of the sanity server, in the one table (``Route/table``) that the router matches
/// requests against, `stagebuild serve --help` and the README list, and a 404 answer names.
public struct Route: Sendable, Equatable {
    /// The path as shown to people, e.g. `"/status/CODE"`; a word in capitals is a parameter.
    public let pattern: String
    /// What the route answers, one sentence.
    public let summary: String
    let kind: Kind
    let match: Match

    /// What answers the route.
    enum Kind: Sendable, Equatable {
        case echo, headers, ip, status, delay, healthz
    }

    /// How a path is matched.
    enum Match: Sendable, Equatable {
        /// This path only.
        case exact(String)
        /// This path, or any below it (`PATH/...`).
        case subtree(String)
        /// `PREFIX/PARAMETER`: exactly one more segment, any text (the route checks it).
        case parameter(prefix: String)
    }

    /// The parameter of a path this route matches (empty without one), or `nil`.
    ///
    /// - Parameter path: A request's path, e.g. `"/status/503"`.
    func parameter(of path: String) -> Substring? {
        switch match {
        case .exact(let exact):
            return path == exact ? "" : nil
        case .subtree(let root):
            return path == root || path.hasPrefix(root + "/") ? "" : nil
        case .parameter(let prefix):
            guard path.hasPrefix(prefix + "/") else { return nil }
            let rest = path.dropFirst(prefix.count + 1)
            return rest.contains("/") ? nil : rest
        }
    }

    /// Every route, in the order they are matched and listed.
    public static let table: [Route] = [
        Route(
            pattern: "/", summary: "the request as it arrived (JSON, or text when the client prefers text/plain)",
            kind: .echo, match: .exact("/")),
        Route(
            pattern: "/anything[/...]", summary: "the same echo, for any path below", kind: .echo, match: .subtree("/anything")),
        Route(pattern: "/headers", summary: "the header fields in arrival order", kind: .headers, match: .exact("/headers")),
        Route(pattern: "/ip", summary: "the TCP peer's address (never a header's)", kind: .ip, match: .exact("/ip")),
        Route(
            pattern: "/status/CODE", summary: "status CODE (200-599), with the fields RFC 9110 requires of it",
            kind: .status, match: .parameter(prefix: "/status")),
        Route(
            pattern: "/delay/MS", summary: "the echo after MS milliseconds (capped by --max-delay)", kind: .delay,
            match: .parameter(prefix: "/delay")),
        Route(pattern: "/healthz", summary: "200 and \"ok\", for health checks", kind: .healthz, match: .exact("/healthz")),
    ]
}
