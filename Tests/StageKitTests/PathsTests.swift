import StageKit
import Testing

/// Path arithmetic on text: the normal form, a path's folder and its last component, for
/// paths already normal (returned as they are) and paths that are not.
@Suite struct PathsTests {
    @Test(arguments: [
        ("/", "/"), ("/a", "/a"), ("/a/b", "/a/b"), ("/...", "/..."), ("/a/..b/.c", "/a/..b/.c"),
        ("//", "/"), ("/a//b", "/a/b"), ("/a/b/", "/a/b"), ("/./a", "/a"), ("/a/.", "/a"),
        ("/a/../b", "/b"), ("/..", "/"), ("/a/b/..", "/a"), ("a/b", "/a/b"), ("", "/"),
    ])
    func normalForm(path: String, normal: String) {
        #expect(Paths.normalized(path) == normal)
    }

    @Test(arguments: [
        ("/a/b/c", "/a/b"), ("/a", "/"), ("/", "/"), ("/a/b/", "/a"), ("/a//b", "/a"), ("/a/./b/../c", "/a"),
    ])
    func folder(path: String, folder: String) {
        #expect(Paths.directory(of: path) == folder)
    }

    @Test(arguments: [("/a/b/c", "c"), ("/a/b/", "b"), ("c", "c"), ("/", "/"), ("", ""), ("a//b//", "b"), ("/é/ü", "ü")])
    func lastComponent(path: String, name: String) {
        #expect(Paths.fileName(of: path) == name)
    }
}
