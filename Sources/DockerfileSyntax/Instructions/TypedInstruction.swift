/// An instruction read by its keyword: the typed view compose, lint and lock read instead of
/// its words. Every view keeps where its words are written (``InstructionWord``).
public enum TypedInstruction: Sendable, Hashable {
    /// `FROM`.
    case from(FromInstruction)
    /// `ARG`.
    case arg(ArgInstruction)
    /// `ENV`.
    case env(KeyValueInstruction)
    /// `LABEL`.
    case label(KeyValueInstruction)
    /// `COPY`.
    case copy(CopyInstruction)
    /// `ADD`.
    case add(CopyInstruction)
    /// `RUN`.
    case run(RunInstruction)
    /// `CMD`, `ENTRYPOINT` or `SHELL` (which one is the instruction's keyword); `nil` without arguments.
    case command(Keyword, CommandForm?)
    /// `USER`; `nil` without a value.
    case user(UserInstruction?)
    /// `WORKDIR`, `STOPSIGNAL` or `MAINTAINER` with its value.
    case value(Keyword, InstructionWord?)
    /// `EXPOSE` or `VOLUME` with its values.
    case list(Keyword, [InstructionWord])
    /// `HEALTHCHECK`.
    case healthcheck(HealthcheckInstruction)
    /// `ONBUILD` and the instruction it registers.
    case onbuild(Instruction?)
    /// The Stagefile's `USE NAME [KEY=VALUE ...]`, its words as written.
    case use([InstructionWord])
    /// An instruction BuildKit's builder does not know, its keyword as written.
    case unknown(String)
}

extension Instruction {
    /// The instruction read by its keyword.
    public var typed: TypedInstruction {
        guard let keyword = knownKeyword else { return .unknown(self.keyword) }
        switch keyword {
        case .from: return .from(asFrom!)
        case .arg: return .arg(asArg!)
        case .env: return .env(asKeyValue!)
        case .label: return .label(asKeyValue!)
        case .copy: return .copy(asCopy!)
        case .add: return .add(asCopy!)
        case .run: return .run(asRun!)
        case .cmd, .entrypoint, .shell: return .command(keyword, command)
        case .user: return .user(asUser)
        case .workdir, .stopsignal, .maintainer: return .value(keyword, singleValue)
        case .expose, .volume: return .list(keyword, listValues ?? [])
        case .healthcheck: return .healthcheck(asHealthcheck!)
        case .onbuild: return .onbuild(onbuildTrigger)
        case .use: return .use(argumentWords)
        }
    }
}
