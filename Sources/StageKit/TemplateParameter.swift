import DockerfileSyntax

/// One parameter of a stage template: a Docker build argument declared by an `ARG` line.
public struct TemplateParameter: Sendable, Hashable {
    /// The `ARG` name, e.g. `APP_PORT`.
    public var name: String
    /// The default as written after `=`, quotes and variable references kept (e.g. `3000`,
    /// `"a b"`, `${OTHER}`); `nil` when the `ARG` has none, which makes the parameter required.
    public var defaultWord: String?
    /// The default as the builder reads it: quotes and escapes removed, variable references
    /// kept (`"-s -w"` is `-s -w`); `nil` without a default.
    public var defaultValue: String?
    /// The `# param NAME: …` documentation line, empty when the template has none.
    public var documentation: String
    /// Where the parameter's name stands on its `ARG` line in the template.
    public var location: SourceLocation
    /// True for a parameter declared before a base template's `FROM`, which its image
    /// reference reads: compose writes its value into the `FROM` line itself.
    public var isInFrom: Bool

    /// True when a `USE` or `FROM stage:` must give a value.
    public var isRequired: Bool { defaultWord == nil }

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - name: The `ARG` name.
    ///   - defaultWord: The default as written, or `nil`.
    ///   - defaultValue: The default as the builder reads it; `defaultWord` when not given.
    ///   - documentation: The doc line.
    ///   - location: Where the name stands in the template.
    ///   - isInFrom: Whether it is declared before a base template's `FROM`.
    public init(
        name: String, defaultWord: String?, defaultValue: String? = nil, documentation: String = "",
        location: SourceLocation = SourceLocation(line: 0, column: 0), isInFrom: Bool = false
    ) {
        self.isInFrom = isInFrom
        self.name = name
        self.defaultWord = defaultWord
        self.defaultValue = defaultValue ?? defaultWord
        self.documentation = documentation
        self.location = location
    }
}
