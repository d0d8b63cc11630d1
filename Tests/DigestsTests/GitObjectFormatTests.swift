import Digests
import Testing

/// Blob IDs as git computes them (`git hash-object`; for SHA-256, a repository made with
/// `--object-format=sha256`), checked here against values git and Python's hashlib printed.
@Suite struct GitObjectFormatTests {
    @Test(arguments: [
        ("", GitObjectFormat.sha1, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"),
        ("hello\n", .sha1, "ce013625030ba8dba906f756967f9e9ca394464a"),
        ("", .sha256, "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"),
        ("hello\n", .sha256, "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"),
    ])
    func blobIDsAreGits(content: String, format: GitObjectFormat, id: String) {
        #expect(format.blobID(of: Array(content.utf8)) == id)
    }

    @Test func aFileOfManyPartsHashesAsOne() {
        let bytes = [UInt8](repeating: 0x61, count: 100_000)
        let id = GitObjectFormat.sha1.blobID(of: bytes)
        #expect(id.count == 40)
        #expect(id != GitObjectFormat.sha1.blobID(of: Array(bytes.dropLast())))
    }
}
