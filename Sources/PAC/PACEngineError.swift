/// Why a PAC script gave no answer.
public enum PACEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script did not load or `FindProxyForURL` threw or is missing; the engine's words.
    case scriptError(String)
    /// Used this many seconds of processor time: stopped (a script that loops).
    case processorTimeLimit(seconds: Int)
    /// No answer within this many seconds of waiting, what the call had left: killed.
    case noAnswer(within: Double)
    /// The caller stopped waiting (a cancelled run): killed.
    case stopped
    /// Needed more than this many bytes of memory.
    case memoryLimit(bytes: Int)
    /// The engine's process ended without a word, e.g. by a signal.
    case crashed(String)
    /// The engine's process could not be started (fork or pipe failed).
    case system(String)

    /// One line, e.g. `"the script used more than 5 s of processor time and was stopped"`.
    public var description: String {
        switch self {
        case .scriptError(let words): "the script failed: \(words)"
        case .processorTimeLimit(let seconds): "the script used more than \(seconds) s of processor time and was stopped"
        case .noAnswer(let seconds): "the script gave no answer within \(Self.seconds(seconds)), the time the call had left"
        case .stopped: "the script was stopped: the run was cancelled"
        case .memoryLimit(let bytes): "the script needed more than \(bytes >> 20) MiB of memory and was stopped"
        case .crashed(let words): "the PAC engine crashed: \(words)"
        case .system(let words): "the PAC engine could not be started: \(words)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return milliseconds.truncatingRemainder(dividingBy: 1000) == 0
            ? "\(Int(milliseconds / 1000)) s" : "\(milliseconds / 1000) s"
    }
}
