import Digests
import Testing

@Suite struct SHA256DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesFIPSVectors(message: String, digest: String) {
        #expect(SHA256Digest(of: Array(message.utf8)).hex == digest)
    }

    @Test func matchesMillionAVector() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256Digest(of: message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [55, 56, 63, 64, 65, 119, 120])
    func hashesInPiecesLikeOneShot(length: Int) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = SHA256Hasher()
        pieces.update(message.prefix(7))
        pieces.update(message.dropFirst(7))
        #expect(pieces.finalize() == SHA256Digest(of: message))
    }

    @Test func knownBoundaryDigestForFiftySixBytes() {
        // 56 bytes needs a second padding block (FIPS 180-4 section 5.1.1).
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 56)
        #expect(SHA256Digest(of: message).hex == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }

    @Test func hashesNonContiguousSequences() {
        let message = "abc".utf8.lazy.map { $0 }
        #expect(SHA256Digest(of: message) == SHA256Digest(of: Array("abc".utf8)))
    }

    @Test func showsTheOCIForm() {
        let digest = SHA256Digest(of: [UInt8]())
        #expect(digest.prefixedHex == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest.description == digest.prefixedHex)
        #expect(digest.bytes.count == 32)
    }

    @Test func parsesHexWithAndWithoutPrefix() {
        let digest = SHA256Digest(of: Array("abc".utf8))
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.prefixedHex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == digest)
        #expect(SHA256Digest(hex: String(digest.hex.dropLast())) == nil)
        #expect(SHA256Digest(hex: "sha512:" + digest.hex) == nil)
        #expect(SHA256Digest(hex: String(repeating: "g", count: 64)) == nil)
        #expect(SHA256Digest(bytes: [1, 2, 3]) == nil)
    }
}
