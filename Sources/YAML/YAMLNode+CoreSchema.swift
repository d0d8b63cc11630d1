/// Tag resolution by YAML 1.2's core schema (YAML 1.2.2, section 10.3.2), the schema YAML 1.2
/// recommends; libyaml leaves resolution to its caller.
extension YAMLNode {
    /// The tag prefix of YAML's own types, `!!` written short (YAML 1.2.2, section 6.8.2.2).
    static let yamlTagPrefix = "tag:yaml.org,2002:"

    /// The node's tag after core-schema resolution: its explicit ``tag`` when it has one other
    /// than the non-specific `!`; for an untagged plain scalar, `tag:yaml.org,2002:` followed by
    /// `null` (`null`, `Null`, `NULL`, `~`, nothing), `bool` (`true`, `True`, `TRUE`, `false`,
    /// `False`, `FALSE`), `int` (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`), `float`
    /// (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)`,
    /// `\.(nan|NaN|NAN)`) or else `str`; `…:str` for any other scalar, `…:seq` for a sequence and
    /// `…:map` for a mapping.
    public var resolvedTag: String {
        if let tag, tag != "!" { return tag }
        switch content {
        case .sequence: return Self.yamlTagPrefix + "seq"
        case .mapping: return Self.yamlTagPrefix + "map"
        case .scalar(let text, let style):
            // The non-specific `!` makes even a plain scalar a string (YAML 1.2.2, section 6.9.1).
            return Self.yamlTagPrefix + (style == .plain && tag == nil ? Self.coreSchemaType(ofPlain: text) : "str")
        }
    }

    /// Whether the node is null under the core schema: an untagged plain `null`, `Null`, `NULL`,
    /// `~` or empty scalar, or one tagged `!!null`. A quoted `""` or `"null"` is a string.
    public var isNull: Bool { resolvedTag == Self.yamlTagPrefix + "null" }

    /// `null`, `bool`, `int`, `float` or `str` for the text of an untagged plain scalar.
    private static func coreSchemaType(ofPlain text: String) -> String {
        switch text {
        case "", "~", "null", "Null", "NULL": return "null"
        case "true", "True", "TRUE", "false", "False", "FALSE": return "bool"
        default: break
        }
        // Every number starts with a digit, a sign or a dot: most keys and words stop here.
        guard let first = text.unicodeScalars.first, "0123456789+-.".unicodeScalars.contains(first) else {
            return "str"
        }
        if text.wholeMatch(of: /[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+/) != nil { return "int" }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)/)
            != nil
        {
            return "float"
        }
        return "str"
    }
}
