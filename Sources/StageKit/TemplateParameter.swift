/// One parameter of a stage template: a Docker build argument declared by an `ARG` line.
public struct TemplateParameter: Sendable, Hashable {
    /// The `ARG` name, e.g. `APP_PORT`.
    public var name: String
    /// The default as written after `=`, quotes and variable references kept (e.g. `3000`,
    /// `"a b"`, `${OTHER}`); `nil` when the `ARG` has none, which makes the parameter required.
    public var defaultWord: String?
    /// The `# param NAME: …` documentation line, empty when the template has none.
    public var documentation: String
    /// Where the `ARG` is declared in the template.
    public var line: Int

    /// True when a `USE` or `FROM stage:` must give a value.
    public var isRequired: Bool { defaultWord == nil }

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - name: The `ARG` name.
    ///   - defaultWord: The default as written, or `nil`.
    ///   - documentation: The doc line.
    ///   - line: The 1-based line of the `ARG`.
    public init(name: String, defaultWord: String?, documentation: String = "", line: Int = 0) {
        self.name = name
        self.defaultWord = defaultWord
        self.documentation = documentation
        self.line = line
    }
}
