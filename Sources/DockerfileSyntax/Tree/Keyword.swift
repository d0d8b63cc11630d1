/// The instructions BuildKit's parser dispatches on (Dockerfile reference, "Overview"), plus
/// the Stagefile's `USE`. Keywords are case-insensitive; a word that is none of these is an
/// unknown instruction, which BuildKit's parser accepts and its builder refuses.
public enum Keyword: String, Sendable, Hashable, CaseIterable {
    case add = "ADD"
    case arg = "ARG"
    case cmd = "CMD"
    case copy = "COPY"
    case entrypoint = "ENTRYPOINT"
    case env = "ENV"
    case expose = "EXPOSE"
    case from = "FROM"
    case healthcheck = "HEALTHCHECK"
    case label = "LABEL"
    case maintainer = "MAINTAINER"
    case onbuild = "ONBUILD"
    case run = "RUN"
    case shell = "SHELL"
    case stopsignal = "STOPSIGNAL"
    case user = "USER"
    case volume = "VOLUME"
    case workdir = "WORKDIR"
    /// The Stagefile's layer-template reference, `USE NAME [KEY=VALUE ...]`: not a Dockerfile instruction.
    case use = "USE"

    /// The keyword for a word as written, in any case; `nil` for an unknown instruction.
    ///
    /// - Parameter written: The instruction's first word, e.g. `from` or `Run`.
    public init?(written: String) {
        self.init(rawValue: written.uppercased())
    }
}
