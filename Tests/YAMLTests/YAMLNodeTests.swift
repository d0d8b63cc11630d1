import Testing
import YAML

@Suite struct YAMLNodeTests {
    @Test func readsNestedBlockMappingsAndSequences() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                rules:
                  SB001:
                    severity: error
                    paths:
                      - Stages/*.Dockerfile
                      - - nested
                        - items
                ignore: []
                """))
        #expect(root.mapping?.map(\.key.scalar) == ["rules", "ignore"])
        #expect(root["rules"]?["SB001"]?["severity"]?.scalar == "error")
        let paths = try #require(root["rules"]?["SB001"]?["paths"]?.sequence)
        #expect(paths.count == 2)
        try #require(paths.count >= 2)
        #expect(paths[0].scalar == "Stages/*.Dockerfile")
        #expect(paths[1].sequence?.map(\.scalar) == ["nested", "items"])
        #expect(root["ignore"]?.sequence?.isEmpty == true)
    }

    @Test func readsFlowCollections() throws {
        let root = try #require(try YAMLDocument.parse(#"{a: [1, "two", {b: c}], d: {}, e: [ ]}"#))
        let a = try #require(root["a"]?.sequence)
        #expect(a.map(\.scalar) == ["1", "two", nil])
        try #require(a.count >= 3)
        #expect(a[2]["b"]?.scalar == "c")
        #expect(root["d"]?.mapping?.isEmpty == true)
        #expect(root["e"]?.sequence?.isEmpty == true)
    }

    @Test func tellsQuotedFromPlainScalars() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                plain: true
                double: "true"
                single: 'true'
                """))
        #expect(root["plain"]?.content == .scalar("true", .plain))
        #expect(root["double"]?.content == .scalar("true", .doubleQuoted))
        #expect(root["single"]?.content == .scalar("true", .singleQuoted))
        #expect(root["plain"]?.resolvedTag == "tag:yaml.org,2002:bool")
        #expect(root["double"]?.resolvedTag == "tag:yaml.org,2002:str")
        #expect(root["double"]?.scalarStyle?.isQuoted == true)
    }

    @Test func tellsNullsFromEmptyStrings() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                word: null
                tilde: ~
                nothing:
                quotedEmpty: ""
                quotedNull: "null"
                tagged: !!null ""
                """))
        #expect(root["word"]?.isNull == true)
        #expect(root["tilde"]?.isNull == true)
        #expect(root["nothing"]?.isNull == true)
        #expect(root["nothing"]?.scalar == "")
        #expect(root["quotedEmpty"]?.isNull == false)
        #expect(root["quotedEmpty"]?.scalar == "")
        #expect(root["quotedNull"]?.isNull == false)
        #expect(root["tagged"]?.isNull == true)
    }

    @Test(arguments: [
        ("0", "int"), ("-17", "int"), ("0o17", "int"), ("0x1F", "int"), ("1.5", "float"), ("-.5e3", "float"),
        (".inf", "float"), ("-.Inf", "float"), (".NaN", "float"), ("True", "bool"), ("FALSE", "bool"), ("yes", "str"),
        ("5s", "str"), ("1.2.3", "str"), ("0x", "str"), ("Null", "null"), ("nil", "str"),
    ])
    func resolvesPlainScalarsByTheCoreSchema(text: String, type: String) throws {
        let node = try #require(try YAMLDocument.parse(text))
        #expect(node.resolvedTag == "tag:yaml.org,2002:" + type)
    }

    @Test func keepsExplicitTagsWithHandlesExpanded() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                str: !!str true
                nonSpecific: ! 12
                int: !!int "7"
                local: !ref target
                untagged: target
                """))
        #expect(root["str"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["str"]?.resolvedTag == "tag:yaml.org,2002:str")
        #expect(root["nonSpecific"]?.tag == "!")
        #expect(root["nonSpecific"]?.resolvedTag == "tag:yaml.org,2002:str")
        #expect(root["int"]?.resolvedTag == "tag:yaml.org,2002:int")
        #expect(root["local"]?.tag == "!ref")
        #expect(root["untagged"]?.tag == nil)
        #expect(root.resolvedTag == "tag:yaml.org,2002:map")
    }

    @Test func appliesEscapesFoldingAndChomping() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                escaped: "caf\\u00e9\\tbar"
                single: 'it''s'
                literal: |
                  line one
                  line two
                folded: >-
                  folded
                  words
                """))
        #expect(root["escaped"]?.scalar == "café\tbar")
        #expect(root["single"]?.scalar == "it's")
        #expect(root["literal"]?.content == .scalar("line one\nline two\n", .literal))
        #expect(root["folded"]?.content == .scalar("folded words", .folded))
    }

    @Test func resolvesAliasesToTheAnchoredNode() throws {
        let root = try #require(
            try YAMLDocument.parse(
                """
                defaults: &defaults
                  prober: http
                  timeout: 5s
                code: &code 200
                modules:
                  first: *defaults
                  second: *defaults
                  codes: [*code, *code]
                """))
        let first = try #require(root["modules"]?["first"])
        #expect(first["timeout"]?.scalar == "5s")
        #expect(first == root["defaults"])
        #expect(root["modules"]?["second"] == root["defaults"])
        // The node, and so its mark, is the anchored one, which starts at its anchor `&defaults`.
        #expect(first.mark == YAMLMark(line: 1, column: 11))
        #expect(root["modules"]?["codes"]?.sequence?.map(\.scalar) == ["200", "200"])
    }

    @Test func letsAnAnchorBeGivenAgain() throws {
        let root = try #require(try YAMLDocument.parse("a: &x one\nb: *x\nc: &x two\nd: *x\n"))
        #expect(root["b"]?.scalar == "one")
        #expect(root["d"]?.scalar == "two")
    }

    @Test func findsKeysByTextWhateverTheirStyle() throws {
        let root = try #require(try YAMLDocument.parse("200: ok\n\"301\": moved\n[1, 2]: pair\n"))
        #expect(root["200"]?.scalar == "ok")
        #expect(root["301"]?.scalar == "moved")
        #expect(root["404"] == nil)
        #expect(root.mapping?.last?.key.sequence?.map(\.scalar) == ["1", "2"])
        #expect(root["200"]?["x"] == nil)
    }

    /// Columns count Unicode scalars: `é` is one column, as is the `👍` that UTF-8 writes in
    /// four bytes; CR LF ends one line, and a byte order mark takes no column.
    @Test func marksCountLinesAndUnicodeScalars() throws {
        let root = try #require(try YAMLDocument.parse("\u{FEFF}é: x\r\n👍: [a, \"b\"]\r\n"))
        let pairs = try #require(root.mapping)
        #expect(root.mark == YAMLMark(line: 1, column: 1))
        try #require(pairs.count >= 2)
        #expect(pairs[0].value.mark == YAMLMark(line: 1, column: 4))
        #expect(pairs[1].key.mark == YAMLMark(line: 2, column: 1))
        #expect(pairs[1].value.mark == YAMLMark(line: 2, column: 4))
        #expect(pairs[1].value.sequence?.map(\.mark) == [YAMLMark(line: 2, column: 5), YAMLMark(line: 2, column: 8)])
        #expect(YAMLMark(line: 2, column: 8).description == "2:8")
    }

    @Test func marksAnEmptyValueJustAfterItsColon() throws {
        let root = try #require(try YAMLDocument.parse("key:\nnext: 1\n"))
        #expect(root["key"]?.mark == YAMLMark(line: 1, column: 5))
    }
}
