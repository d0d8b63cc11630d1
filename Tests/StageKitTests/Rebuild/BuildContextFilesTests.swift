import Foundation
import StageKit
import TestSupport
import Testing

/// What a COPY source reads of a build context on disk, as a builder's cache compares it.
@Suite struct BuildContextFilesTests {
    func context(_ scratch: Scratch) -> BuildContextFiles {
        BuildContextFiles(root: scratch.url.path, fileSystem: LocalFileSystem())
    }

    @Test func aFolderSourceIsEveryFileInItAndTheExecutableBitCountsButNotTheOtherModeBitsOrTimes() throws {
        let scratch = try Scratch()
        try scratch.write("a\n", to: "app/a.js")
        try scratch.write("b\n", to: "app/lib/b.js")
        let before = context(scratch).fingerprints(of: "app/")
        #expect(Set(before.keys) == ["app/a.js", "app/lib", "app/lib/b.js"])
        let a = scratch.url.appendingPathComponent("app/a.js").path
        #expect(chmod(a, 0o600) == 0)
        try scratch.backdate("app/a.js")
        #expect(context(scratch).fingerprints(of: "app/") == before)
        #expect(chmod(a, 0o755) == 0)
        let executable = context(scratch).fingerprints(of: "app")
        #expect(executable["app/a.js"] != before["app/a.js"])
        #expect(executable["app/lib/b.js"] == before["app/lib/b.js"])
    }

    @Test func wildcardsMatchWithinASegmentAndDockerignoreKeepsFilesOut() throws {
        let scratch = try Scratch()
        try scratch.write("{}\n", to: "package.json")
        try scratch.write("{}\n", to: "package-lock.json")
        try scratch.write("x\n", to: "src/index.js")
        try scratch.write("secret\n", to: ".env")
        try scratch.write(".env\nsrc/*.log\n", to: ".dockerignore")
        try scratch.write("log\n", to: "src/debug.log")
        #expect(Set(context(scratch).fingerprints(of: "package*.json").keys) == ["package.json", "package-lock.json"])
        #expect(Set(context(scratch).fingerprints(of: "./src").keys) == ["src/index.js"])
        #expect(context(scratch).fingerprints(of: ".env").isEmpty)
        #expect(
            Set(context(scratch).fingerprints(of: ".").keys) == [
                ".dockerignore", "package.json", "package-lock.json", "src", "src/index.js",
            ])
    }

    @Test func anExceptionBringsBackAFileOfAnExcludedFolderAndDotGitIsNeverCompared() throws {
        let scratch = try Scratch()
        try scratch.write("x\n", to: "app/server.js")
        try scratch.write("y\n", to: "app/other.js")
        try scratch.write("ref: refs/heads/main\n", to: ".git/HEAD")
        try scratch.write("app\n!app/server.js\n", to: ".dockerignore")
        #expect(Set(context(scratch).fingerprints(of: "app/").keys) == ["app/server.js"])
        #expect(Set(context(scratch).fingerprints(of: ".").keys) == [".dockerignore", "app/server.js"])
    }

    @Test func aDockerfileOwnIgnoreFileWinsAndALinkIsItsTarget() throws {
        let scratch = try Scratch()
        try scratch.write("x\n", to: "a.txt")
        try scratch.write("y\n", to: "b.txt")
        try scratch.write("a.txt\n", to: ".dockerignore")
        try scratch.write("b.txt\n", to: "Dockerfile.dockerignore")
        #expect(symlink("a.txt", scratch.url.appendingPathComponent("link").path) == 0)
        let files = context(scratch).fingerprints(of: "/")
        #expect(files["a.txt"] != nil && files["b.txt"] == nil)
        #expect(files["link"] == "link a.txt")
    }
}
