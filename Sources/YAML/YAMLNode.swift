/// One node of a YAML document as libyaml read it: a scalar, a sequence or a mapping, with its
/// explicit tag and where it starts.
///
/// Aliases are resolved: a node reached through `*name` is the anchored node itself, with the
/// anchored node's marks. Mappings keep their pairs in the order written; keys are unique (see
/// ``YAMLDocument/parse(_:)``). Nodes are equal when their contents, tags and marks are.
public struct YAMLNode: Sendable, Equatable {
    /// What a node holds.
    public enum Content: Sendable, Equatable {
        /// A scalar's text after YAML's escapes, folding and chomping, and how it was written.
        case scalar(String, YAMLScalarStyle)
        /// A sequence's items, in order.
        case sequence([YAMLNode])
        /// A mapping's pairs, in the order written.
        case mapping([(key: YAMLNode, value: YAMLNode)])

        /// Equal kinds with equal contents, item by item and pair by pair.
        public static func == (left: Content, right: Content) -> Bool {
            switch (left, right) {
            case (.scalar(let leftText, let leftStyle), .scalar(let rightText, let rightStyle)):
                return leftText == rightText && leftStyle == rightStyle
            case (.sequence(let leftItems), .sequence(let rightItems)):
                return leftItems == rightItems
            case (.mapping(let leftPairs), .mapping(let rightPairs)):
                return leftPairs.count == rightPairs.count
                    && zip(leftPairs, rightPairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default:
                return false
            }
        }
    }

    /// The content.
    public var content: Content
    /// The tag written on the node, with its handle expanded (`!!int` is `tag:yaml.org,2002:int`,
    /// a local `!ref` stays `!ref`, the non-specific `!` stays `!`); `nil` when none was written.
    /// ``resolvedTag`` gives the tag an untagged node has.
    public var tag: String?
    /// Where the node starts: at its tag or anchor when it has one, else at a quoted scalar's
    /// opening quote, a block mapping's first key, a block sequence's first `-` or a flow
    /// collection's bracket. An empty value (`key:`) starts just after its `:`.
    public var mark: YAMLMark

    /// A node.
    ///
    /// - Parameters:
    ///   - content: Its scalar text, items or pairs.
    ///   - tag: Its explicit tag, handle expanded, or `nil`.
    ///   - mark: Where it starts.
    public init(_ content: Content, tag: String? = nil, mark: YAMLMark) {
        self.content = content
        self.tag = tag
        self.mark = mark
    }

    /// A scalar's text (whatever its style); `nil` for a collection.
    public var scalar: String? {
        guard case .scalar(let text, _) = content else { return nil }
        return text
    }

    /// How a scalar was written; `nil` for a collection.
    public var scalarStyle: YAMLScalarStyle? {
        guard case .scalar(_, let style) = content else { return nil }
        return style
    }

    /// A sequence's items; `nil` for a scalar or a mapping.
    public var sequence: [YAMLNode]? {
        guard case .sequence(let items) = content else { return nil }
        return items
    }

    /// A mapping's pairs in the order written; `nil` for a scalar or a sequence.
    public var mapping: [(key: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs
    }

    /// The value of a mapping's key whose scalar text is `key`, whatever the key's style, so
    /// `node["200"]` finds `200:` and `"200":`; the first such pair when a mapping holds both
    /// (they are distinct keys: an integer and a string).
    ///
    /// - Parameter key: The key's text.
    /// - Returns: The value; `nil` when the node is no mapping or has no such key.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar == key }?.value
    }
}
