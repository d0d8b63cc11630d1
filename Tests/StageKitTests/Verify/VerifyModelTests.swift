import Archives
import DockerfileSyntax
import Foundation
import Serialization
import TestSupport
import Testing

@testable import StageKit

/// The pure parts of `stagebuild verify`: where two contents differ, which cause a difference
/// is named with, the configuration walk, dpkg's status database, and two real tar streams
/// (GNU tar) compared entry by entry.
@Suite struct VerifyModelTests {
    private func entry(_ path: String, content: String = "", mode: UInt32 = 0o644, mtime: Int64 = 0) -> TarEntry {
        TarEntry(
            path: path, type: .regular, permissions: mode, userID: 0, groupID: 0, modificationSeconds: mtime,
            size: Int64(content.utf8.count), contentDigest: .init(of: Array(content.utf8)), contentPrefix: Array(content.utf8))
    }

    private func cause(
        _ first: TarEntry, _ second: TarEntry, instruction: String = "RUN x", conditions: BuildConditions = BuildConditions()
    ) throws -> String {
        let difference = try #require(EntryDifference.between(first, second))
        let parsed = try DockerfileParser.parse(instruction + "\n").instructions.first
        return DifferenceCauses.cause(of: difference, instruction: parsed, packagesChanged: false, conditions: conditions).id
    }

    @Test func theDifferingTextIsWidenedToWholeWords() throws {
        let text = try #require(
            DifferingText(Array("Thu Dec  3 10:11:59 UTC 2026\n".utf8), Array("Thu Dec  3 10:12:03 UTC 2026\n".utf8)))
        #expect(text.first == "10:11:59" && text.second == "10:12:03")
        #expect(DifferingText([0, 1], [0, 2]) == nil)
        #expect(DifferingText(Array("same".utf8), Array("same".utf8)) == nil)
    }

    @Test func causesFromPathContentAndInstruction() throws {
        #expect(
            try cause(entry("var/log/dpkg.log", content: "a"), entry("var/log/dpkg.log", content: "b")) == "package-manager-logs")
        #expect(
            try cause(entry("var/cache/ldconfig/aux-cache", content: "a"), entry("var/cache/ldconfig/aux-cache", content: "b"))
                == "ldconfig-cache")
        #expect(
            try cause(entry("x/__pycache__/m.pyc", content: "a"), entry("x/__pycache__/m.pyc", content: "b")) == "python-bytecode"
        )
        #expect(try cause(entry("etc/machine-id", content: "a"), entry("etc/machine-id", content: "b")) == "machine-id")
        #expect(try cause(entry("tmp/x", content: "a"), entry("tmp/x", content: "b")) == "temporary-files")
        #expect(
            try cause(entry("etc/d", content: "built 2026-12-03\n"), entry("etc/d", content: "built 2026-12-04\n"))
                == "build-time")
        #expect(try cause(entry("etc/h", content: "1e3d18192b78\n"), entry("etc/h", content: "5f63f22d740a\n")) == "host-name")
        #expect(
            try cause(
                entry("etc/w", content: "2\n"), entry("etc/w", content: "1\n"), conditions: BuildConditions(cpuCounts: (2, 1)))
                == "cpu-count")
        #expect(try cause(entry("etc/w", content: "2\n"), entry("etc/w", content: "1\n")) == "unexplained")
        #expect(
            try cause(entry("etc/w", content: "2\n"), entry("etc/w", content: "1\n"), instruction: "RUN nproc > /etc/w")
                == "cpu-count")
        #expect(
            try cause(
                entry("srv/a", content: "x"), entry("srv/a", content: "y"), instruction: "RUN curl -o /srv/a https://e.test/")
                == "network-content")
        let gzip: [UInt8] = [0x1f, 0x8b, 8, 0, 1, 2, 3, 4]
        var a = entry("doc.gz")
        var b = entry("doc.gz")
        (a.contentPrefix, a.contentDigest) = (gzip, .init(of: gzip))
        (b.contentPrefix, b.contentDigest) = (gzip.dropLast() + [5], .init(of: gzip.dropLast() + [5]))
        #expect(try cause(a, b) == "archive-times")
        #expect(try cause(entry("app", mtime: 1), entry("app", mtime: 2)) == "file-times")
        #expect(
            try cause(entry("etc/c", mode: 0o644), entry("etc/c", mode: 0o664), instruction: "COPY c /etc/c")
                == "context-permissions")
        #expect(
            try cause(entry("etc/c", mode: 0o644), entry("etc/c", mode: 0o664), instruction: "COPY --from=b c /etc/c")
                == "unexplained")
        #expect(ImageExplanation.cause(ofField: "history[3].created") == .configurationTime)
        #expect(ImageExplanation.cause(ofField: "rootfs.diff_ids[2]") == .followsLayers)
        #expect(ImageExplanation.cause(ofField: "config.Env[0]") == .unexplained)
        #expect(ImageExplanation.cause(ofField: "container") == .hostName)
        #expect(ImageExplanation.cause(ofField: "config.Image") == .followsLayers)
    }

    /// A tar archive's member times, and a listing whose modes differ while its times do not.
    @Test func archivesAndListingsAreToldApart() throws {
        func tar(_ mtime: String) -> [UInt8] {
            var header = [UInt8](repeating: 0, count: 512)
            header.replaceSubrange(0..<5, with: Array("a.txt".utf8))
            header.replaceSubrange(136..<147, with: Array(mtime.utf8))
            header.replaceSubrange(257..<262, with: Array("ustar".utf8))
            return header
        }
        var a = entry("srv/a.tar")
        var b = entry("srv/a.tar")
        (a.contentPrefix, a.contentDigest) = (tar("15135314761"), .init(of: tar("15135314761")))
        (b.contentPrefix, b.contentDigest) = (tar("15135314763"), .init(of: tar("15135314763")))
        #expect(try cause(a, b) == "archive-times")
        // Two lines differ: the differing text runs from the first mode to the last, the times between.
        let listing = { (mode: String) in "\(mode) 1 root root 6 Dec  3 14:25 a\n\(mode) 1 root root 6 Dec  3 14:25 b\n" }
        #expect(
            try cause(entry("srv/ls.txt", content: listing("-rw-------")), entry("srv/ls.txt", content: listing("-rw--w----")))
                == "context-permissions")
        // The same clock on both sides is not a time that differs.
        #expect(
            try cause(entry("srv/t", content: "at 14:25 made x\n"), entry("srv/t", content: "at 14:25 made y\n"))
                == "unexplained")
    }

    /// The keyword of a history entry as buildah, Docker's legacy builder and BuildKit record it.
    @Test func historyEntriesNameTheirKeywordInEachBuildersForm() {
        let forms = [
            ("/bin/sh -c #(nop) COPY file:0a1b in /etc/app.conf ", "COPY"),
            ("/bin/sh -c #(nop)  ENV A=b", "ENV"),
            ("/bin/sh -c apt-get update", "RUN"),
            ("|1 V=2 /bin/sh -c make", "RUN"),
            ("RUN |1 SOURCE_DATE_EPOCH=0 /bin/sh -c echo $V > /w/v # buildkit", "RUN"),
            ("COPY a.txt /app/a.txt # buildkit", "COPY"),
            ("WORKDIR /w", "WORKDIR"),
            ("HEALTHCHECK &{[\"CMD-SHELL\" \"true\"] \"0s\"}", "HEALTHCHECK"),
            ("", "RUN"),
        ]
        for (createdBy, keyword) in forms {
            #expect(LayerAttribution.recordedKeyword(createdBy) == keyword, "\(createdBy)")
        }
    }

    @Test func everyCauseHasItsWordsFixAndExample() {
        let ids = ReproducibilityCause.catalog.map(\.id)
        #expect(Set(ids).count == ids.count)
        for cause in ReproducibilityCause.catalog {
            #expect(!cause.summary.isEmpty && !cause.fix.isEmpty && !cause.example.isEmpty, "\(cause.id)")
        }
    }

    @Test func theConfigurationIsComparedFieldByField() {
        var differences: [ImageComparison.FieldDifference] = []
        let first = JSONValue.object([("created", .string("a")), ("history", .array([.object([("x", .integer(1))])]))])
        let second = JSONValue.object([
            ("created", .string("b")), ("history", .array([.object([("x", .integer(1))]), .object([])])),
            ("os", .string("linux")),
        ])
        ImageComparison.compare(first, second, at: "", into: &differences)
        #expect(differences.map(\.path) == ["created", "history[1]", "os"])
        #expect(differences.last?.first == nil && differences.last?.second == "\"linux\"")
    }

    @Test func packageVersionsComeFromInstalledParagraphs() {
        let status = """
            Package: curl
            Status: install ok installed
            Version: 7.88.1-10+deb12u7

            Package: gone
            Status: deinstall ok config-files
            Version: 1

            """
        let other = status.replacingOccurrences(of: "deb12u7", with: "deb12u8")
        let changes = PackageVersions(status: Array(status.utf8)).changes(to: PackageVersions(status: Array(other.utf8)))
        #expect(changes == [PackageVersions.Change(name: "curl", first: "7.88.1-10+deb12u7", second: "7.88.1-10+deb12u8")])
    }

    /// Two tar streams GNU tar writes from two trees.
    private func layers(_ first: [String: String], _ second: [String: String], reverse: Bool = false) throws -> LayerComparison {
        let scratch = try Scratch()
        var paths: [String] = []
        for (index, files) in [first, second].enumerated() {
            let tree = scratch.path + "/tree\(index)"
            for (path, text) in files { try scratch.write(text, to: "tree\(index)/" + path) }
            var names = files.keys.sorted()
            if reverse && index == 1 { names.reverse() }
            let output = scratch.path + "/layer\(index).tar"
            let run = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/tar"),
                ["--format=pax", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-C", tree, "-cf", output] + names,
                limit: .seconds(30))
            #expect(run.status == 0, "\(run)")
            paths.append(output)
        }
        return try LayerComparison(first: paths[0], second: paths[1])
    }

    @Test func layersAreComparedEntryByEntry() throws {
        let same = ["a": "1", "b": "2", "c": "3"]
        let comparison = try layers(same, ["a": "1", "b": "changed", "d": "4"])
        #expect(comparison.differences.map(\.path) == ["b", "c", "d"])
        #expect(comparison.differences[0].aspects == [.size, .content])
        #expect(comparison.differences[1].second == nil && comparison.differences[2].first == nil)
        #expect(!comparison.orderDiffers)
        let reordered = try layers(same, same, reverse: true)
        #expect(reordered.differences.isEmpty && reordered.orderDiffers)
    }
}
