import Foundation
import TestSupport
import Testing
import XZ

/// XZ against files made by the xz tool itself (Debian's xz-utils), run here as the oracle.
@Suite struct XZTests {
    /// Compresses bytes with `xz` (the reference encoder), or `nil` when it is not installed.
    private func xz(_ bytes: [UInt8], arguments: [String] = []) throws -> [UInt8]? {
        let program = "/usr/bin/xz"
        guard FileManager.default.isExecutableFile(atPath: program) else { return nil }
        let folder = try Scratch(prefix: "xz-tests")
        let file = folder.url.appendingPathComponent("data")
        try Data(bytes).write(to: file)
        _ = try ProcessRun.run(URL(fileURLWithPath: program), arguments + ["-z", "-k", file.path], limit: .seconds(30))
        return [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("data.xz")))
    }

    @Test func decompressesWhatXZCompressed() throws {
        let text = [UInt8]((0..<200_000).map { "line \($0)\n" }.joined().utf8)
        let compressed = try #require(try xz(text, arguments: ["--check=sha256"]), "xz is not installed")
        #expect(compressed.count < text.count / 4)
        #expect(try XZ.decompress(compressed, maxOutputBytes: text.count) == text)
    }

    @Test func readsConcatenatedStreamsAsOne() throws {
        let first = try #require(try xz(Array("Package: a\n\n".utf8)), "xz is not installed")
        let second = try #require(try xz(Array("Package: b\n".utf8)))
        #expect(try XZ.decompress(first + second, maxOutputBytes: 100) == Array("Package: a\n\nPackage: b\n".utf8))
    }

    @Test func refusesMoreThanTheLimit() throws {
        let compressed = try #require(try xz([UInt8](repeating: 0x61, count: 100_000)), "xz is not installed")
        #expect(throws: XZError("it decompresses to more than 99999 bytes")) {
            try XZ.decompress(compressed, maxOutputBytes: 99_999)
        }
    }

    @Test func refusesCorruptTruncatedAndForeignData() throws {
        var compressed = try #require(try xz(Array(String(repeating: "Version: 1.0\n", count: 1000).utf8)), "xz is not installed")
        #expect(throws: XZError("its xz data is truncated")) {
            try XZ.decompress(Array(compressed.dropLast(20)), maxOutputBytes: 1 << 20)
        }
        #expect(throws: XZError("it is not xz data")) {
            try XZ.decompress(Array("Package: a\nVersion: 1.0\n".utf8), maxOutputBytes: 100)
        }
        compressed[compressed.count / 2] ^= 0xFF
        #expect(throws: XZError.self) { try XZ.decompress(compressed, maxOutputBytes: 1 << 20) }
    }
}
