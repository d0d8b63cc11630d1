/// Text given to the probe that cannot be used: a status list, an expectation, a header, a pin,
/// a `--resolve` entry, a target URL or a method.
///
/// Messages never repeat a header's value or a URL's password.
public enum ProbeInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--expect-status`: the list as written, and what is wrong.
    case invalidStatusList(String, reason: String)
    /// `--expect-header`: the text as written, and what is wrong.
    case invalidHeaderExpectation(String, reason: String)
    /// `--expect-body`: the pattern, and the regular expression engine's complaint.
    case invalidBodyPattern(String, reason: String)
    /// `-H`: the header's name when one could be read (never the value), and what is wrong.
    case invalidRequestHeader(name: String?, reason: String, option: String = "-H")
    /// `--pinned-public-key`: the text as written, and what is wrong.
    case invalidPin(String, reason: String)
    /// `--resolve`: the entry as written, and what is wrong.
    case invalidResolveEntry(String, reason: String)
    /// A target URL, redacted (`user:***@host`), and what is wrong.
    case invalidTarget(String, reason: String)
    /// `-X`: the method as written, and what is wrong.
    case invalidMethod(String, reason: String)

    /// What is wrong, without the option or the text: for a config that names the setting
    /// in its own words (the exporter's module keys).
    public var reason: String {
        switch self {
        case .invalidStatusList(_, let reason), .invalidHeaderExpectation(_, let reason), .invalidBodyPattern(_, let reason),
            .invalidRequestHeader(_, let reason, _), .invalidPin(_, let reason), .invalidResolveEntry(_, let reason),
            .invalidTarget(_, let reason), .invalidMethod(_, let reason):
            reason
        }
    }

    /// One line a user can act on, e.g. `invalid --expect-status "200-1000": 1000 is not a
    /// status code (100-599)`.
    public var description: String {
        switch self {
        case .invalidStatusList(let text, let reason): "invalid --expect-status \"\(text)\": \(reason)"
        case .invalidHeaderExpectation(let text, let reason): "invalid --expect-header \"\(text)\": \(reason)"
        case .invalidBodyPattern(let text, let reason): "invalid --expect-body \"\(text)\": \(reason)"
        case .invalidRequestHeader(let name?, let reason, let option): "invalid \(option) for \"\(name)\": \(reason)"
        case .invalidRequestHeader(nil, let reason, let option): "invalid \(option): \(reason)"
        case .invalidPin(let text, let reason): "invalid --pinned-public-key \"\(text)\": \(reason)"
        case .invalidResolveEntry(let text, let reason): "invalid --resolve \"\(text)\": \(reason)"
        case .invalidTarget(let text, let reason): "invalid target \"\(text)\": \(reason)"
        case .invalidMethod(let text, let reason): "invalid -X \"\(text)\": \(reason)"
        }
    }
}
