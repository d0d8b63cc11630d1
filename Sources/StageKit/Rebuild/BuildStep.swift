import DockerfileSyntax

/// One instruction of a build stage as a builder's cache sees it: what the builder compares to
/// decide whether a cached result stands for it, under each builder's rules
/// (`docs/cache-rules.md`).
public struct BuildStep: Sendable {
    /// The instruction as the parser read it, for its typed views.
    public var instruction: Instruction
    /// The instruction's keyword in upper case, e.g. `RUN`.
    public var keyword: String
    /// The instruction as written (its logical line, continuations joined as the parser
    /// joins them).
    public var text: String
    /// Its first line in the composed Dockerfile, from 1.
    public var line: Int
    /// The template or Stagefile line that wrote it; `nil` for a line compose wrote itself.
    public var origin: Composition.LineOrigin?
    /// Whether BuildKit makes a filesystem operation of it (`RUN`, `COPY`, `ADD`, `WORKDIR`
    /// other than `/`): only those hold layers; every other instruction changes only the
    /// image's configuration.
    public var addsLayerInBuildKit: Bool
    /// Whether buildah makes a layer of it (`RUN`, `COPY`, `ADD`); buildah commits every
    /// instruction as an image of its own, with or without a layer.
    public var addsLayerInBuildah: Bool
    /// What BuildKit's cache key for it is made of.
    public var buildKitKey: [CacheKeyPart]
    /// What buildah's cache key for it is made of (the history line it records).
    public var buildahKey: [CacheKeyPart]
    /// The composed line of the `ARG` or `ENV` that gave each variable the value it sees.
    public var variableLines: [String: Int]

    /// Its cache key under a builder's rules.
    ///
    /// - Parameter rules: The builder's rules.
    public func key(_ rules: CacheRules) -> [CacheKeyPart] { rules == .buildKit ? buildKitKey : buildahKey }

    /// Whether it makes a layer under a builder's rules.
    ///
    /// - Parameter rules: The builder's rules.
    public func addsLayer(_ rules: CacheRules) -> Bool { rules == .buildKit ? addsLayerInBuildKit : addsLayerInBuildah }
}

/// One thing a builder's cache key for an instruction is made of.
public enum CacheKeyPart: Sendable, Hashable {
    /// The instruction's text as the builder records it (BuildKit: variables expanded where
    /// it expands them; buildah: as written).
    case text(String)
    /// A variable the instruction sees and its value; `nil` when declared without one.
    case variable(name: String, value: String?)
    /// The user a `RUN` runs as (`USER`), or root.
    case user(String)
    /// The folder a `RUN` runs in, or relative `COPY` destinations are joined to (`WORKDIR`).
    case workingDirectory(String)
    /// The shell a shell-form `RUN` runs in (`SHELL`), joined by spaces.
    case shell(String)
    /// Files of the build context a `COPY`, `ADD` or bind mount reads: the source, variables
    /// expanded; the files' content is compared when two sides are compared.
    case contextFiles(String)
    /// Files read from another build stage (`COPY --from`, `RUN --mount=from=`), by the
    /// stage's key (`BuildPlan.Stage.key`), however `--from` names it.
    case stageFiles(String)
}

/// Whose cache rules a prediction follows.
public enum CacheRules: String, Sendable, Hashable, CaseIterable {
    /// BuildKit's (`docker build`, `docker buildx`, `buildctl`): filesystem operations in a
    /// chain, the image configuration beside it.
    case buildKit = "buildkit"
    /// buildah's (`buildah bud --layers`, `podman build`): every instruction in one chain.
    case buildah = "buildah"

    /// The builder's name in reports.
    public var displayName: String { self == .buildKit ? "BuildKit" : "buildah" }
}
