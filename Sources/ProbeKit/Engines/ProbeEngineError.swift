/// An engine that cannot run with the settings given.
public enum ProbeEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine cannot honour these options; each with the reason. They are refused, never
    /// silently ignored.
    case optionsNotHonoured(engine: String, options: [String], reasons: [String])

    /// One line, e.g. `--engine urlsession cannot honour --resolve (FoundationNetworking has no
    /// CURLOPT_RESOLVE); use --engine curl, or leave them out`.
    public var description: String {
        switch self {
        case .optionsNotHonoured(let engine, let options, let reasons):
            let list = zip(options, reasons).map { "\($0) (\($1))" }.joined(separator: "; ")
            return
                "--engine \(engine) cannot honour \(list); use --engine curl, or leave \(options.count == 1 ? "it" : "them") out"
        }
    }
}
