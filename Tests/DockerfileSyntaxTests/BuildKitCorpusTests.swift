import DockerfileSyntax
import Foundation
import Testing

/// Parses every corpus file and compares the instruction list with what BuildKit's own parser
/// produced for it (`*.buildkit.json`, written and checked by `Tests/Oracle/buildkit_dump.py`).
@Suite struct BuildKitCorpusTests {
    static let corpus = Bundle.module.resourceURL!.appendingPathComponent("Corpus")

    static func files(in folder: String) -> [String] {
        let directory = corpus.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".Dockerfile") }.sorted().map { "\(folder)/\($0)" }
    }

    static func golden(for file: String) throws -> BuildKitView {
        let url = corpus.appendingPathComponent(String(file.dropLast(".Dockerfile".count)) + ".buildkit.json")
        return try JSONDecoder().decode(BuildKitView.self, from: Data(contentsOf: url))
    }

    static func source(_ file: String) throws -> String {
        let data = try Data(contentsOf: corpus.appendingPathComponent(file))
        // Not String(data:encoding:), which drops a byte order mark.
        return try #require(String(validating: data, as: UTF8.self))
    }

    @Test func corpusIsLargeEnough() {
        #expect(Self.files(in: "accepted").count >= 40)
        #expect(Self.files(in: "rejected").count >= 5)
    }

    @Test(arguments: files(in: "accepted"))
    func agreesWithBuildKit(file: String) throws {
        let expected = try Self.golden(for: file)
        let tree = try DockerfileParser.parse(try Self.source(file))
        #expect(BuildKitView(tree) == expected)
    }

    @Test(arguments: files(in: "accepted"))
    func printsUntouchedFileByteForByte(file: String) throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent(file))
        let tree = try DockerfileParser.parse(try Self.source(file))
        #expect(Data(tree.text.utf8) == data)
    }

    /// Files `scripts/test` composed and had BuildKit read (see `Tests/Oracle/Compose`), given
    /// as a folder in `STAGEBUILD_EXTRA_CORPUS`; none when the variable is unset.
    static func extraFiles() -> [String] {
        guard let folder = ProcessInfo.processInfo.environment["STAGEBUILD_EXTRA_CORPUS"] else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".Dockerfile") }.sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: extraFiles())
    func composedOutputReadsBackInBuildKit(path: String) throws {
        let golden = URL(fileURLWithPath: String(path.dropLast(".Dockerfile".count)) + ".buildkit.json")
        let expected = try JSONDecoder().decode(BuildKitView.self, from: Data(contentsOf: golden))
        let source = try #require(String(validating: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        #expect(BuildKitView(try DockerfileParser.parse(source)) == expected)
    }

    @Test(arguments: files(in: "rejected"))
    func rejectsWhatBuildKitRejects(file: String) throws {
        #expect(try Self.golden(for: file).rejected == true)
        #expect(throws: DockerfileSyntaxError.self) { try DockerfileParser.parse(try Self.source(file)) }
    }
}

/// BuildKit's view of a file as the oracle script records it.
struct BuildKitView: Decodable, Equatable {
    var instructions: [Entry]?
    var rejected: Bool?

    struct Entry: Decodable, Equatable {
        var cmd: String
        var subCmd: String?
        var json: Bool
        var original: String
        var startLine: Int
        var endLine: Int
        var flags: [String]
        var value: [String]
        var heredocs: [HeredocEntry]
    }

    struct HeredocEntry: Decodable, Equatable {
        var name: String
        var fileDescriptor: Int
        var content: String
    }

    /// What our parser says, in the oracle's shape: for `ONBUILD` the trigger's keyword, form
    /// and arguments, as the `dockerfile` package reports them.
    init(_ tree: DockerfileSyntaxTree) {
        rejected = nil
        instructions = tree.instructions.map { instruction in
            let shown = instruction.onbuildTrigger ?? instruction
            let heredocs = instruction.heredocs
            var original = instruction.logicalLine
            if !heredocs.isEmpty {
                original += "\n" + heredocs.map { $0.content + $0.name + "\n" }.joined()
            }
            return Entry(
                cmd: instruction.keyword, subCmd: instruction.onbuildTrigger?.keyword, json: shown.isJSONForm,
                original: original, startLine: instruction.startLine, endLine: instruction.endLine,
                flags: instruction.flags, value: shown.arguments,
                heredocs: heredocs.map { HeredocEntry(name: $0.name, fileDescriptor: $0.fileDescriptor, content: $0.content) })
        }
    }
}
