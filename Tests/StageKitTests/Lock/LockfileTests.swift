import StageKit
import Testing

@Suite struct LockfileTests {
    static let debianDigest = Digest.sha256(of: Array("debian".utf8))
    static let nginxDigest = Digest.sha256(of: Array("nginx".utf8))
    static let templateDigest = Digest.sha256(of: Array("template".utf8))

    static func inputs(
        images: [String] = ["nginx:1.27", "debian:bookworm-slim"], templates: [String: Digest]? = nil
    ) throws
        -> LockInputs
    {
        LockInputs(
            images: try images.map { try ImageReference(parsing: $0) }, templates: templates ?? ["debian": templateDigest])
    }

    static func lockfile() throws -> Lockfile {
        let inputs = try inputs()
        return Lockfile(
            inputs: inputs,
            resolved: [
                ResolvedImage(
                    reference: inputs.images[0], digest: debianDigest, mediaType: "application/vnd.oci.image.index.v1+json"),
                ResolvedImage(
                    reference: inputs.images[1], digest: nginxDigest,
                    mediaType: "application/vnd.docker.distribution.manifest.list.v2+json"),
            ])
    }

    @Test func writesSortedKeysTwoSpaceIndentAndATrailingNewline() throws {
        let inputs = try Self.inputs()
        let expected = """
            {
              "formatVersion": 1,
              "images": {
                "debian:bookworm-slim": {
                  "digest": "\(Self.debianDigest)",
                  "mediaType": "application/vnd.oci.image.index.v1+json",
                  "name": "docker.io/library/debian:bookworm-slim",
                  "reference": "debian:bookworm-slim"
                },
                "nginx:1.27": {
                  "digest": "\(Self.nginxDigest)",
                  "mediaType": "application/vnd.docker.distribution.manifest.list.v2+json",
                  "name": "docker.io/library/nginx:1.27",
                  "reference": "nginx:1.27"
                }
              },
              "inputsDigest": "\(inputs.digest)",
              "templates": {
                "debian": {
                  "digest": "\(Self.templateDigest)"
                }
              }
            }

            """
        #expect(try Self.lockfile().text == expected)
    }

    @Test func writesEmptyObjectsAndEscapesJSON() throws {
        let inputs = LockInputs(images: [], templates: [:])
        let text = Lockfile(inputs: inputs, resolved: []).text
        #expect(text.contains("\"images\": {},\n"))
        #expect(text.hasSuffix("\"templates\": {}\n}\n"))
    }

    @Test func readsBackWhatItWrites() throws {
        let lockfile = try Self.lockfile()
        #expect(try Lockfile(parsing: lockfile.text) == lockfile)
    }

    @Test func theInputsDigestDependsOnImagesAndTemplatesNotOnOrder() throws {
        let one = try Self.inputs(images: ["a:1", "b:1", "a:1"])
        let two = try Self.inputs(images: ["b:1", "a:1"])
        #expect(one.digest == two.digest)
        #expect(one.images.map(\.written) == ["a:1", "b:1"])
        #expect(try Self.inputs(images: ["a:1"]).digest != one.digest)
        #expect(try Self.inputs(images: ["a:1", "b:1"], templates: [:]).digest != one.digest)
    }

    @Test func isCurrentForTheSameInputs() throws {
        #expect(try Self.lockfile().staleness(against: Self.inputs()).isEmpty)
    }

    @Test func namesAddedAndRemovedImagesAndTemplates() throws {
        let changed = try Self.inputs(images: ["debian:bookworm-slim", "alpine:3.20"], templates: ["tools": Self.templateDigest])
        let reasons = try Self.lockfile().staleness(against: changed)
        #expect(
            reasons == [
                .imageAdded("alpine:3.20"), .imageRemoved("nginx:1.27"), .templateRemoved("debian"), .templateAdded("tools"),
            ])
        #expect(reasons.map(\.description).contains("image alpine:3.20 was added"))
    }

    @Test func namesAChangedTemplate() throws {
        let changedDigest = Digest.sha256(of: Array("changed".utf8))
        let reasons = try Self.lockfile().staleness(against: Self.inputs(templates: ["debian": changedDigest]))
        #expect(reasons == [.templateChanged("debian", locked: Self.templateDigest, current: changedDigest)])
        #expect(reasons[0].description.hasPrefix("template 'debian' changed (locked \(Self.templateDigest), now sha256:"))
    }

    @Test func noticesAHandEditedInputsDigest() throws {
        var lockfile = try Self.lockfile()
        lockfile.inputsDigest = Self.nginxDigest
        #expect(try lockfile.staleness(against: Self.inputs()) == [.inputsDigestMismatch])
    }

    @Test func refusesAnotherFormatVersion() throws {
        var lockfile = try Self.lockfile()
        lockfile.formatVersion = 2
        #expect(try lockfile.staleness(against: Self.inputs()) == [.formatVersion(found: 2)])
        #expect(throws: LockfileError.self) { try Lockfile(parsing: lockfile.text) }
    }

    @Test(arguments: [
        ("", "formatVersion"),
        ("[]", "formatVersion"),
        (#"{"formatVersion": 1}"#, "missing field"),
        (#"{"formatVersion": 1, "images": {}, "inputsDigest": "sha256:x", "templates": {}}"#, "inputsDigest"),
        (#"{"formatVersion": 1, "images": [], "inputsDigest": "sha256:x", "templates": {}}"#, "wrong type"),
        (
            #"{"formatVersion": 1, "images": {"a:1": {"digest": "sha256:\#(String(repeating: "0", count: 64))", "mediaType": "m", "name": "n", "reference": "b:1"}}, "inputsDigest": "sha256:\#(String(repeating: "0", count: 64))", "templates": {}}"#,
            "not its key"
        ),
    ])
    func refusesMalformedFiles(text: String, word: String) {
        do {
            _ = try Lockfile(parsing: text)
            Issue.record("read a malformed lockfile: \(text)")
        } catch {
            #expect(error.description.contains(word), "\(error.description)")
        }
    }
}
