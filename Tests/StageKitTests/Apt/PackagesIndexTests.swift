import StageKit
import Testing

@Suite struct PackagesIndexTests {
    static let index = """
        Package: curl
        Version: 7.88.1-10+deb12u12
        Architecture: amd64
        Description: command line tool
         continuation line with Package: fake
        Filename: pool/main/c/curl/curl_7.88.1-10+deb12u12_amd64.deb
        SHA256: ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789

        Package: zlib1g
        Version: 1:1.2.13.dfsg-1
        Architecture: amd64
        Filename: pool/main/z/zlib/zlib1g_1.2.13.dfsg-1_amd64.deb
        SHA256: d7dd1d1411fedf27f5e27650a6eff20ef294077b568f4c8c5e51466dc7c08ce4

        Package: ca-certificates
        Version: 20230311
        Architecture: all
        Filename: pool/main/c/ca-certificates/ca-certificates_20230311_all.deb
        SHA256: 0d5f444f594e48c1e16a41d8fc628a09b24c658916a1274025c2330f2a802bed
        """

    @Test func keepsOnlyTheWantedParagraphsWithTheirFields() {
        let entries = PackagesIndex(parsing: Array(Self.index.utf8), keeping: ["curl", "ca-certificates", "fake"]).entries
        #expect(entries.map(\.name) == ["curl", "ca-certificates"])
        #expect(entries.first?.version == "7.88.1-10+deb12u12")
        #expect(entries.first?.sha256 == "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789")
        #expect(entries.last?.architecture == "all")
        #expect(entries.last?.filename == "pool/main/c/ca-certificates/ca-certificates_20230311_all.deb")
    }

    @Test func readsCRLFAndAParagraphWithoutATrailingBlankLine() {
        let text = Self.index.replacingOccurrences(of: "\n", with: "\r\n")
        let entries = PackagesIndex(parsing: Array(text.utf8), keeping: ["ca-certificates"]).entries
        #expect(entries.map(\.version) == ["20230311"])
    }

    @Test func releaseFileListsEachIndexWithItsHashAndSize() throws {
        let text = """
            Origin: Debian
            Suite: oldstable-updates
            Codename: bookworm-updates
            Date: Mon, 30 Nov 2026 02:21:41 UTC
            MD5Sum:
             0123456789abcdef0123456789abcdef    32757 main/binary-amd64/Packages
            SHA256:
             80a1f6ee524222c49f230fc5700d00f946d0a47eb5258180106dd03df126e16a    32757 main/binary-amd64/Packages
             87e7e94047fb7fb6f4ceecc7022d4bee55b66031cc2a7666d3196f3e0aabb846     6924 main/binary-amd64/Packages.xz

            """
        let release = try ReleaseFile(parsing: Array(text.utf8))
        #expect(release.codename == "bookworm-updates")
        #expect(release.suite == "oldstable-updates")
        #expect(release.files.count == 2)
        #expect(release.files["main/binary-amd64/Packages.xz"]?.size == 6924)
        #expect(
            release.files["main/binary-amd64/Packages"]?.sha256
                == "80a1f6ee524222c49f230fc5700d00f946d0a47eb5258180106dd03df126e16a")
        #expect(throws: PackageResolutionError.self) { try ReleaseFile(parsing: Array("Suite: x\n".utf8)) }
    }
}
