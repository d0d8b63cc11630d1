import StageKit
import Testing

/// `.dockerignore` as BuildKit's context transfer reads it (moby/patternmatcher): each case
/// is a pattern file, a path, and whether the path stays out of the context.
@Suite struct DockerignorePatternsTests {
    @Test(arguments: [
        // One segment: `*` stops at `/`.
        ("*.md", "README.md", true),
        ("*.md", "docs/guide.md", false),
        // `**` spans folders, none included.
        ("**/*.md", "docs/guide.md", true),
        ("**/*.md", "README.md", true),
        ("docs/**/index.html", "docs/index.html", true),
        ("docs/**/index.html", "docs/a/b/index.html", true),
        // A last `**` is a prefix: the folder's content, not the folder.
        ("docs/**", "docs/a", true),
        ("docs/**", "docs", false),
        // A pattern that names a folder names everything in it.
        ("node_modules", "node_modules/left-pad/index.js", true),
        ("node_modules", "src/node_modules", false),
        // Cleaned as paths: a leading `/` or `./` and `..` steps.
        ("/build", "build/out.o", true),
        ("./build", "build", true),
        ("a/../build", "build", true),
        // `?` and classes within a segment.
        ("file?.txt", "file1.txt", true),
        ("file?.txt", "file10.txt", false),
        ("[ab].txt", "b.txt", true),
        ("[!ab].txt", "c.txt", true),
        // Comments and blank lines are nothing.
        ("# *.md\n\n", "README.md", false),
        // The last match decides: an exception brings a file back, a later pattern takes it again.
        ("*.md\n!README.md", "README.md", false),
        ("*.md\n!README.md", "CHANGES.md", true),
        ("*.md\n!README.md\nREADME.md", "README.md", true),
        // An exception for a file inside an excluded folder brings it back.
        ("docs\n!docs/keep.txt", "docs/keep.txt", false),
        ("docs\n!docs/keep.txt", "docs/other.txt", true),
        // CRLF pattern files.
        ("*.log\r\n!keep.log\r\n", "keep.log", false),
    ])
    func excludes(patterns: String, path: String, excluded: Bool) {
        #expect(DockerignorePatterns(text: patterns).excludes(path) == excluded, "\(patterns) on \(path)")
    }
}
