import CYAML

/// Turns libyaml's parse events into the root node of one document: YAML's "compose" step
/// (YAML 1.2.2, section 3.1.2), with the rules and limits ``YAMLDocument/parse(_:)`` promises
/// checked as each event arrives, so hostile text stops at its first offending node rather
/// than after libyaml has built all of it.
struct Composer {
    /// A composed node with the sizes the limits need.
    private struct Composed {
        var node: YAMLNode
        /// Nodes in its tree, itself included, aliases expanded.
        var size: Int
        /// Levels of collections it spans: 0 for a scalar, one more than its deepest child's for
        /// a collection.
        var height: Int
    }

    /// A sequence or mapping whose end event has not come yet.
    private struct OpenCollection {
        let isMapping: Bool
        let tag: String?
        let anchor: String?
        let mark: YAMLMark
        /// A sequence's items, or a mapping's keys and values in turn.
        var children: [YAMLNode] = []
        var size = 1
        var height = 1
        /// Where each scalar key of a mapping was given.
        var keyMarks: [ScalarKey: YAMLMark] = [:]
    }

    /// A scalar key as YAML compares keys: by resolved tag and text.
    private struct ScalarKey: Hashable {
        let tag: String
        let text: String

        init?(_ node: YAMLNode) {
            guard let text = node.scalar else { return nil }
            self.tag = node.resolvedTag
            self.text = text
        }
    }

    /// What an anchor names: a collection still being read (an alias to it would make the data
    /// recursive), or a composed node.
    private enum Anchor {
        case open
        case composed(Composed)
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let text: String
    private var openCollections: [OpenCollection] = []
    private var anchors: [String: Anchor] = [:]
    private var nodeCount = 0
    private var documentCount = 0
    private var root: YAMLNode?

    /// A composer over a parser that has its input.
    ///
    /// - Parameters:
    ///   - parser: An initialized libyaml parser with `text` as its input.
    ///   - text: The input, for the marks of errors.
    init(parser: UnsafeMutablePointer<yaml_parser_t>, text: String) {
        self.parser = parser
        self.text = text
    }

    /// Reads events up to the end of the stream.
    ///
    /// - Returns: The document's root; `nil` for a stream without a document.
    /// - Throws: ``YAMLError`` as ``YAMLDocument/parse(_:)`` describes.
    mutating func compose() throws(YAMLError) -> YAMLNode? {
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { throw YAMLError(parser: parser.pointee, text: text) }
            defer { yaml_event_delete(&event) }
            let mark = YAMLMark(event.start_mark)
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documentCount += 1
                guard documentCount == 1 else {
                    throw YAMLError(message: "a second document starts here; only one document is read", mark: mark)
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                try count(1, at: mark)
                let node = YAMLNode(.scalar(value, YAMLScalarStyle(scalar.style)), tag: Self.string(scalar.tag), mark: mark)
                let composed = Composed(node: node, size: 1, height: 0)
                if let anchor = Self.string(scalar.anchor) { anchors[anchor] = .composed(composed) }
                try add(composed, at: mark)
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                try begin(isMapping: false, tag: Self.string(start.tag), anchor: Self.string(start.anchor), at: mark)
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                try begin(isMapping: true, tag: Self.string(start.tag), anchor: Self.string(start.anchor), at: mark)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                try end()
            case YAML_ALIAS_EVENT:
                try alias(String(cString: event.data.alias.anchor), at: mark)
            case YAML_STREAM_END_EVENT:
                return root
            default:
                // The stream's start and a document's end carry nothing to compose.
                break
            }
        }
    }

    private mutating func begin(isMapping: Bool, tag: String?, anchor: String?, at mark: YAMLMark) throws(YAMLError) {
        guard openCollections.count < YAMLDocument.maximumDepth else { throw Self.tooDeep(at: mark) }
        try count(1, at: mark)
        if let anchor { anchors[anchor] = .open }
        openCollections.append(OpenCollection(isMapping: isMapping, tag: tag, anchor: anchor, mark: mark))
    }

    private mutating func end() throws(YAMLError) {
        // libyaml pairs every end event with a start event.
        let collection = openCollections.removeLast()
        let content: YAMLNode.Content
        if collection.isMapping {
            let children = collection.children
            content = .mapping(stride(from: 0, to: children.count, by: 2).map { (key: children[$0], value: children[$0 + 1]) })
        } else {
            content = .sequence(collection.children)
        }
        let node = YAMLNode(content, tag: collection.tag, mark: collection.mark)
        let composed = Composed(node: node, size: collection.size, height: collection.height)
        // An anchor given again inside the collection names that later node (YAML 1.2.2,
        // section 3.2.2.2: an alias refers to the most recent node with the anchor).
        if let anchor = collection.anchor, case .open? = anchors[anchor] { anchors[anchor] = .composed(composed) }
        try add(composed, at: collection.mark)
    }

    private mutating func alias(_ name: String, at mark: YAMLMark) throws(YAMLError) {
        switch anchors[name] {
        case nil:
            throw YAMLError(message: "found undefined alias \"*\(name)\": no anchor \"&\(name)\" comes before it", mark: mark)
        case .open?:
            throw YAMLError(
                message: "alias \"*\(name)\" is inside the collection it names; recursive data is not read", mark: mark)
        case .composed(let composed)?:
            guard openCollections.count + composed.height <= YAMLDocument.maximumDepth else { throw Self.tooDeep(at: mark) }
            try count(composed.size, at: mark)
            try add(composed, at: mark)
        }
    }

    /// Adds a node to the innermost open collection, or makes it the root; `mark` is where it
    /// was given (for an alias, the alias's own mark, not its node's).
    private mutating func add(_ composed: Composed, at mark: YAMLMark) throws(YAMLError) {
        guard let innermost = openCollections.indices.last else {
            root = composed.node
            return
        }
        if openCollections[innermost].isMapping, openCollections[innermost].children.count.isMultiple(of: 2),
            let key = ScalarKey(composed.node)
        {
            if let first = openCollections[innermost].keyMarks[key] {
                throw YAMLError(message: "duplicate mapping key \"\(key.text)\", first given at \(first)", mark: mark)
            }
            openCollections[innermost].keyMarks[key] = mark
        }
        openCollections[innermost].children.append(composed.node)
        openCollections[innermost].size += composed.size
        openCollections[innermost].height = max(openCollections[innermost].height, composed.height + 1)
    }

    private mutating func count(_ nodes: Int, at mark: YAMLMark) throws(YAMLError) {
        nodeCount += nodes
        guard nodeCount <= YAMLDocument.maximumNodeCount else {
            throw YAMLError(
                message: "the document holds more than \(YAMLDocument.maximumNodeCount) nodes, aliases expanded", mark: mark)
        }
    }

    private static func tooDeep(at mark: YAMLMark) -> YAMLError {
        YAMLError(message: "sequences and mappings nest more than \(YAMLDocument.maximumDepth) levels deep", mark: mark)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
