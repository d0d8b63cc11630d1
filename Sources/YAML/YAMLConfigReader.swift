/// A config file problem at `file:line:column`, as every YAML config stagebuild reads reports
/// it (the exporter's `blackbox.yml`, lint's `.stagebuild.yaml`).
public struct YAMLConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The config file as given.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The config file as given.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    ///   - message: What is wrong, without a trailing period.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Reads YAML nodes as config values (mappings with known keys, strings, booleans, lists),
/// with every error at the mark of the node it is about.
public struct YAMLConfigReader: Sendable {
    /// The config file's name, for errors.
    public let file: String

    /// Creates a reader for one file.
    ///
    /// - Parameter file: The file's name as given, for errors.
    public init(file: String) { self.file = file }

    /// Parses a config file's text.
    ///
    /// - Parameter text: The YAML.
    /// - Returns: The root node; `nil` for a file without a document (empty or comments only).
    /// - Throws: ``YAMLConfigError`` at the mark where the YAML does not parse.
    public func document(_ text: String) throws(YAMLConfigError) -> YAMLNode? {
        do {
            return try YAMLDocument.parse(text)
        } catch {
            throw YAMLConfigError(file: file, line: error.mark.line, column: error.mark.column, message: error.message)
        }
    }

    /// An error at a node's mark.
    ///
    /// - Parameters:
    ///   - node: The node the error is about.
    ///   - message: What is wrong.
    public func error(_ node: YAMLNode, _ message: String) -> YAMLConfigError {
        YAMLConfigError(file: file, line: node.mark.line, column: node.mark.column, message: message)
    }

    /// A mapping's pairs with string keys, in order; a null node is an empty mapping.
    ///
    /// - Parameters:
    ///   - node: The node.
    ///   - place: What the mapping is, for errors (e.g. `the top level`).
    /// - Throws: ``YAMLConfigError`` when the node is not a mapping or a key is not a string.
    public func pairs(_ node: YAMLNode, in place: String) throws(YAMLConfigError) -> [(key: YAMLNode, value: YAMLNode)] {
        if node.isNull { return [] }
        guard let mapping = node.mapping else { throw error(node, "\(place) must be a mapping") }
        for (key, _) in mapping where key.scalar == nil { throw error(key, "keys in \(place) must be strings") }
        return mapping
    }

    /// A mapping whose keys must be among `allowed`, by key.
    ///
    /// - Parameters:
    ///   - node: The node.
    ///   - allowed: The keys the mapping may hold.
    ///   - place: What the mapping is, for errors.
    ///   - unsupported: Keys known to the format but not acted on, each with why; such a key is
    ///     an error that says so, never ignored.
    /// - Throws: ``YAMLConfigError`` at an unknown or unsupported key, naming the known ones.
    public func mapping(
        _ node: YAMLNode, allowed: Set<String>, in place: String, unsupported: [String: String] = [:]
    ) throws(YAMLConfigError) -> [String: YAMLNode] {
        var fields: [String: YAMLNode] = [:]
        for (key, value) in try pairs(node, in: place) {
            let name = key.scalar ?? ""
            if let why = unsupported[name] { throw error(key, "\(name) in \(place) is not supported: \(why)") }
            guard allowed.contains(name) else {
                throw error(key, "unknown key '\(name)' in \(place) (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            fields[name] = value
        }
        return fields
    }

    /// A scalar's text; a null is a string only when quoted (`""`).
    ///
    /// - Throws: ``YAMLConfigError`` for a mapping, a sequence or an unquoted null.
    public func string(_ node: YAMLNode) throws(YAMLConfigError) -> String {
        guard let text = node.scalar, !node.isNull || node.scalarStyle?.isQuoted == true else {
            throw error(node, "expected a string")
        }
        return text
    }

    /// `true` or `false`.
    ///
    /// - Throws: ``YAMLConfigError`` for anything else.
    public func bool(_ node: YAMLNode) throws(YAMLConfigError) -> Bool {
        switch node.scalar {
        case "true"?: return true
        case "false"?: return false
        default: throw error(node, "expected true or false")
        }
    }

    /// A list of strings; a null node is an empty list.
    ///
    /// - Throws: ``YAMLConfigError`` when the node is not a list or an item is not a string.
    public func strings(_ node: YAMLNode) throws(YAMLConfigError) -> [String] {
        if node.isNull { return [] }
        guard let items = node.sequence else { throw error(node, "expected a list") }
        var strings: [String] = []
        for item in items { strings.append(try string(item)) }
        return strings
    }
}
