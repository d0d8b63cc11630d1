/// Why a PAC script gave no answer.
public enum PACEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script did not load or `FindProxyForURL` threw or is missing; the engine's words.
    case scriptError(String)
    /// Still running after this many seconds: killed.
    case timeLimit(seconds: Double)
    /// Needed more than this many bytes of memory.
    case memoryLimit(bytes: Int)
    /// The engine's process ended without a word, e.g. by a signal.
    case crashed(String)
    /// The engine's process could not be started (fork or pipe failed).
    case system(String)

    /// One line, e.g. `"the script ran longer than 5 s and was stopped"`.
    public var description: String {
        switch self {
        case .scriptError(let words): "the script failed: \(words)"
        case .timeLimit(let seconds): "the script ran longer than \(Self.seconds(seconds)) and was stopped"
        case .memoryLimit(let bytes): "the script needed more than \(bytes >> 20) MiB of memory and was stopped"
        case .crashed(let words): "the PAC engine crashed: \(words)"
        case .system(let words): "the PAC engine could not be started: \(words)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
