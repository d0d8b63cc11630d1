import Archives
import Digests
import Foundation
import TestSupport
import Testing

/// `TarReader` on tar streams GNU tar writes (ustar and pax, gzip and none): every header field
/// an image layer's comparison reads, and content hashed as it streams.
@Suite struct TarReaderTests {
    /// Writes a small tree and archives it with GNU tar in the given format and compression.
    private func archive(_ scratch: Scratch, format: String, compress: String?) throws -> String {
        let tree = scratch.path + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/etc", withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: tree + "/etc/greeting"))
        try Data(repeating: 0x61, count: 200_000).write(to: URL(fileURLWithPath: tree + "/big"))
        try FileManager.default.createSymbolicLink(atPath: tree + "/link", withDestinationPath: "etc/greeting")
        chmod(tree + "/etc/greeting", 0o4750)
        let output = scratch.path + "/layer.tar" + (compress == nil ? "" : ".gz")
        var arguments = [
            "--format=\(format)", "--sort=name", "--numeric-owner", "--owner=12", "--group=56", "--mtime=@1700000000", "-C", tree,
            "-cf",
            output,
        ]
        if let compress { arguments.insert(compress, at: 0) }
        arguments += ["./etc", "./big", "./link"]
        let run = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/tar"), arguments, limit: .seconds(30))
        #expect(run.status == 0, "\(run)")
        return output
    }

    private func entries(_ path: String, keep: Int = 4) throws -> (entries: [TarEntry], compression: String) {
        let reader = try TarReader(path: path)
        var entries: [TarEntry] = []
        while let entry = try reader.next(keepingPrefix: { _ in keep }) { entries.append(entry) }
        return (entries, reader.compression)
    }

    @Test(arguments: [("gnu", nil), ("pax", "-z"), ("ustar", "-z")] as [(String, String?)])
    func readsEveryFieldOfEachEntry(format: String, compress: String?) throws {
        let scratch = try Scratch()
        let (entries, compression) = try entries(try archive(scratch, format: format, compress: compress))
        #expect(compression == (compress == nil ? "none" : "gzip"))
        #expect(entries.map(\.path) == ["etc", "etc/greeting", "big", "link"])
        let greeting = try #require(entries.first { $0.path == "etc/greeting" })
        #expect(greeting.type == .regular)
        #expect(greeting.permissions == 0o4750)
        #expect(greeting.userID == 12 && greeting.groupID == 56)
        #expect(greeting.modificationSeconds == 1_700_000_000)
        #expect(greeting.size == 6)
        #expect(greeting.contentDigest == SHA256Digest(of: Array("hello\n".utf8)))
        #expect(greeting.contentPrefix == Array("hell".utf8))
        let big = try #require(entries.first { $0.path == "big" })
        #expect(big.contentDigest == SHA256Digest(of: [UInt8](repeating: 0x61, count: 200_000)))
        #expect(big.contentPrefix.count == 4)
        let link = try #require(entries.first { $0.path == "link" })
        #expect(link.type == .symbolicLink && link.linkTarget == "etc/greeting" && link.contentDigest == nil)
        #expect(entries.first?.type == .directory)
    }

    @Test func aTruncatedStreamIsAnErrorNotAnEnd() throws {
        let scratch = try Scratch()
        let path = try archive(scratch, format: "pax", compress: nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(100_000).write(to: URL(fileURLWithPath: path))
        #expect(throws: ArchiveError.self) { _ = try entries(path) }
    }

    @Test func anEmptyLayerHasNoEntries() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/empty.tar"
        try Data(count: 1024).write(to: URL(fileURLWithPath: path))
        #expect(try entries(path).entries.isEmpty)
    }

    @Test func aFileThatIsNoArchiveIsRefused() throws {
        let scratch = try Scratch()
        try scratch.write("not a tar stream, only words\n", to: "words")
        #expect(throws: ArchiveError.self) { _ = try entries(scratch.path + "/words") }
    }
}
