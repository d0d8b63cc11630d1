import CYAML

/// Reads one YAML document, such as a config file, with libyaml.
///
/// libyaml 0.2.5 scans and parses (YAML 1.1 syntax, which differs from YAML 1.2's in corners
/// config files rarely reach); its events are composed into ``YAMLNode``s here, adding what
/// libyaml leaves to its caller: aliases resolved, a single document, unique mapping keys, and
/// limits that keep hostile text from taking unbounded memory or time. Plain scalars resolve
/// by YAML 1.2's core schema (``YAMLNode/resolvedTag``), so `yes` is a string, not YAML 1.1's
/// boolean.
public enum YAMLDocument {
    /// The longest text read: 16 MiB (16,777,216 bytes of UTF-8), far above any config file.
    public static let maximumInputBytes = 16 << 20
    /// How deeply sequences and mappings may nest: 256 levels, the top-level collection being 1.
    public static let maximumDepth = 256
    /// How many nodes a document may hold: 1,048,576, each alias counting every node of the
    /// node it repeats, so a few lines of nested aliases ("billion laughs") cannot expand into a
    /// tree too large to walk.
    public static let maximumNodeCount = 1 << 20

    /// Reads the one document in YAML text.
    ///
    /// - Parameter text: The text of a file or stream, e.g. a blackbox_exporter `blackbox.yml`.
    ///   A leading byte order mark is skipped.
    /// - Returns: The document's root node; `nil` when the text holds no document (nothing, or
    ///   only blank lines and comments). A lone `---` is a document whose root is an empty plain
    ///   scalar, which ``YAMLNode/isNull``.
    /// - Throws: ``YAMLError`` at the first problem: libyaml's syntax errors, e.g.
    ///   `found character that cannot start any token` at a tab that indents; a second document
    ///   (`---` after content); a key written twice in one mapping, which YAML forbids (YAML
    ///   1.2.2, section 3.2.1.1) and libyaml does not check: scalar keys are the same when their
    ///   text and ``YAMLNode/resolvedTag`` are, so `a:` and `"a":` are, `1:` and `"1":` are not;
    ///   an alias to an undefined anchor or to a collection that contains it; text longer than
    ///   ``maximumInputBytes``, nesting deeper than ``maximumDepth``, more than
    ///   ``maximumNodeCount`` nodes.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        let length = text.utf8.count
        guard length <= maximumInputBytes else {
            throw YAMLError(
                message: "the text is \(length) bytes; at most \(maximumInputBytes) (16 MiB) are read",
                mark: YAMLMark(line: 1, column: 1))
        }
        // libyaml asserts a non-NULL input, which empty text may not have; it holds no document.
        guard length > 0 else { return nil }

        // The parser must not move once it has input: libyaml keeps a pointer to it.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            fatalError("libyaml could not allocate a parser (yaml_parser_initialize failed)")
        }
        defer { yaml_parser_delete(parser) }

        var contiguous = text
        let result = contiguous.withUTF8 { bytes in
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
            var composer = Composer(parser: parser, text: text)
            return Result { () throws(YAMLError) in try composer.compose() }
        }
        return try result.get()
    }
}
