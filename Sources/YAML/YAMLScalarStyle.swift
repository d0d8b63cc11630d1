import CYAML

/// How a scalar was written (YAML 1.2.2, chapters 7 and 8). Only a plain scalar's text is
/// resolved by the core schema: `true` is a boolean where `"true"` and `'true'` are strings,
/// and `null`, `~` or nothing at all are null where `""` is an empty string.
public enum YAMLScalarStyle: Sendable, Hashable {
    /// Unquoted, e.g. `true`, `200`, `~`, `http_2xx`, or nothing (`key:` with no value).
    case plain
    /// `'...'`: no escapes, `''` stands for one `'`.
    case singleQuoted
    /// `"..."`: backslash escapes such as `\n` and `\u00e9`.
    case doubleQuoted
    /// A `|` block: line breaks kept.
    case literal
    /// A `>` block: line breaks folded into spaces.
    case folded

    /// Whether the text was quoted (single or double); block scalars are neither quoted nor plain.
    public var isQuoted: Bool { self == .singleQuoted || self == .doubleQuoted }

    /// The style of a libyaml scalar event; a parser never reports `YAML_ANY_SCALAR_STYLE`,
    /// which only the emitter takes.
    init(_ style: yaml_scalar_style_t) {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: self = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: self = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: self = .literal
        case YAML_FOLDED_SCALAR_STYLE: self = .folded
        default: self = .plain
        }
    }
}
