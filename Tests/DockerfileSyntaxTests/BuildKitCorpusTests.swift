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
    static func extraFiles() -> [String] { dockerfiles(inFolderNamedBy: "STAGEBUILD_EXTRA_CORPUS") }

    /// The `.Dockerfile` files of the folder an environment variable names, sorted; none when
    /// it is unset.
    static func dockerfiles(inFolderNamedBy variable: String) -> [String] {
        guard let folder = ProcessInfo.processInfo.environment[variable] else { return [] }
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

    /// Files `Tests/Oracle/dockerfile_differential.py` generated, each beside BuildKit's answer,
    /// given as a folder in `STAGEBUILD_DIFFERENTIAL_DOCKERFILES`; none when the variable is unset.
    static func differentialFiles() -> [String] { dockerfiles(inFolderNamedBy: "STAGEBUILD_DIFFERENTIAL_DOCKERFILES") }

    /// Every message names the file, so that a failure can be replayed from the folder the
    /// generator kept (it prints its seed).
    @Test(arguments: differentialFiles())
    func agreesWithBuildKitOnGeneratedFile(path: String) throws {
        let golden = URL(fileURLWithPath: String(path.dropLast(".Dockerfile".count)) + ".buildkit.json")
        let expected = try JSONDecoder().decode(BuildKitView.self, from: Data(contentsOf: golden))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let source = try #require(String(validating: data, as: UTF8.self), "\(path) is not UTF-8")
        if expected.rejected == true {
            #expect(throws: DockerfileSyntaxError.self, "\(path): BuildKit rejects it") { try DockerfileParser.parse(source) }
            return
        }
        let tree: DockerfileSyntaxTree
        do {
            tree = try DockerfileParser.parse(source)
        } catch {
            Issue.record("\(path): BuildKit accepts it, the parser throws \(error)")
            return
        }
        let difference = BuildKitView(tree).firstDifference(from: expected)
        #expect(difference == nil, "\(path)")
        #expect(Data(tree.text.utf8) == data, "\(path) does not print back byte for byte")
    }

    /// A documented difference (`Tests/Oracle/README.md`): BuildKit ends HEALTHCHECK's type
    /// word at a byte Go reads as a space, and 0xA0 is NBSP's second byte, so it cuts the
    /// character in half and its answer is no UTF-8 (the oracle cannot read it). We end the
    /// word at ASCII white space only, which keeps the character whole.
    @Test func healthcheckTypeWordKeepsACharacterBuildKitCutsInHalf() throws {
        let tree = try DockerfileParser.parse("FROM a\nHEALTHCHECK CMD\u{A0}x y\n")
        #expect(tree.instructions.last?.arguments == ["CMD\u{A0}x", "y"])
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

    /// `cmd` and `original` are `nil` where BuildKit's are empty: the `dockerfile` package
    /// reports an empty string as `None` (an instruction that is only an escape character at
    /// the end of the file has no keyword).
    struct Entry: Decodable, Equatable {
        var cmd: String?
        var subCmd: String?
        var json: Bool
        var original: String?
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
                cmd: instruction.keyword.isEmpty ? nil : instruction.keyword, subCmd: instruction.onbuildTrigger?.keyword,
                json: shown.isJSONForm, original: original.isEmpty ? nil : original, startLine: instruction.startLine,
                endLine: instruction.endLine,
                flags: instruction.flags, value: shown.arguments,
                heredocs: heredocs.map { HeredocEntry(name: $0.name, fileDescriptor: $0.fileDescriptor, content: $0.content) })
        }
    }

    /// The first instruction that differs from `other`, for a failure message.
    func firstDifference(from other: BuildKitView) -> String? {
        guard let mine = instructions, let theirs = other.instructions else {
            return "rejected: \(rejected ?? false), BuildKit: \(other.rejected ?? false)"
        }
        for (index, (ours, buildKit)) in zip(mine, theirs).enumerated() where ours != buildKit {
            return "instruction \(index + 1): parser \(ours), BuildKit \(buildKit)"
        }
        return mine.count == theirs.count ? nil : "\(mine.count) instructions, BuildKit \(theirs.count)"
    }
}
