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

    /// The SHA-256 of an entry's fields, one per line in key order.
    static func integrity(_ fields: String...) -> Digest {
        Digest.sha256(of: Array(fields.map { $0 + "\n" }.joined().utf8))
    }

    @Test func writesSortedKeysTwoSpaceIndentAndATrailingNewline() throws {
        let inputs = try Self.inputs()
        let debianIntegrity = Self.integrity(
            Self.debianDigest.description, "application/vnd.oci.image.index.v1+json", "docker.io/library/debian:bookworm-slim",
            "debian:bookworm-slim")
        let nginxIntegrity = Self.integrity(
            Self.nginxDigest.description, "application/vnd.docker.distribution.manifest.list.v2+json",
            "docker.io/library/nginx:1.27", "nginx:1.27")
        let expected = """
            {
              "formatVersion": 4,
              "images": {
                "debian:bookworm-slim": {
                  "digest": "\(Self.debianDigest)",
                  "integrity": "\(debianIntegrity)",
                  "mediaType": "application/vnd.oci.image.index.v1+json",
                  "name": "docker.io/library/debian:bookworm-slim",
                  "reference": "debian:bookworm-slim"
                },
                "nginx:1.27": {
                  "digest": "\(Self.nginxDigest)",
                  "integrity": "\(nginxIntegrity)",
                  "mediaType": "application/vnd.docker.distribution.manifest.list.v2+json",
                  "name": "docker.io/library/nginx:1.27",
                  "reference": "nginx:1.27"
                }
              },
              "inputsDigest": "\(inputs.digest(lockedSnapshots: [:]))",
              "packageArchives": {},
              "packages": {},
              "snapshots": {},
              "templates": {
                "debian": {
                  "digest": "\(Self.templateDigest)"
                }
              },
              "unverifiedPackages": []
            }

            """
        #expect(try Self.lockfile().text == expected)
    }

    @Test func writesEmptyObjectsAndEscapesJSON() throws {
        let inputs = LockInputs(images: [], templates: [:])
        let text = Lockfile(inputs: inputs, resolved: []).text
        #expect(text.contains("\"images\": {},\n"))
        #expect(text.hasSuffix("\"templates\": {},\n  \"unverifiedPackages\": []\n}\n"))
    }

    @Test func readsBackWhatItWrites() throws {
        let lockfile = try Self.lockfile()
        #expect(try Lockfile(parsing: lockfile.text) == lockfile)
    }

    @Test func theInputsDigestDependsOnImagesAndTemplatesNotOnOrder() throws {
        let one = try Self.inputs(images: ["a:1", "b:1", "a:1"])
        let two = try Self.inputs(images: ["b:1", "a:1"])
        #expect(one.digest(lockedSnapshots: [:]) == two.digest(lockedSnapshots: [:]))
        #expect(one.digest(lockedSnapshots: ["DEBIAN_SNAPSHOT": "20250520T000000Z"]) != one.digest(lockedSnapshots: [:]))
        #expect(one.digest(lockedSnapshots: [:], unverifiedPackages: ["curl=1"]) != one.digest(lockedSnapshots: [:]))
        #expect(one.images.map(\.written) == ["a:1", "b:1"])
        #expect(try Self.inputs(images: ["a:1"]).digest(lockedSnapshots: [:]) != one.digest(lockedSnapshots: [:]))
        #expect(
            try Self.inputs(images: ["a:1", "b:1"], templates: [:]).digest(lockedSnapshots: [:])
                != one.digest(lockedSnapshots: [:]))
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
        try #require(reasons.count >= 1)
        #expect(reasons[0].description.hasPrefix("template 'debian' changed (locked \(Self.templateDigest), now sha256:"))
    }

    @Test func noticesAHandEditedInputsDigest() throws {
        var lockfile = try Self.lockfile()
        lockfile.inputsDigest = Self.nginxDigest
        #expect(try lockfile.staleness(against: Self.inputs()) == [.inputsDigestMismatch])
    }

    @Test(arguments: [
        ("digest", "sha256:\(String(repeating: "0", count: 64))"),
        ("mediaType", "application/vnd.oci.image.manifest.v1+json"), ("name", "docker.io/evil/nginx:1.27"),
    ])
    func noticesAHandEditedImageEntryAndNamesIt(field: String, value: String) throws {
        let text = try Self.lockfile().text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entry = try #require(lines.firstIndex { $0.contains("\"nginx:1.27\": {") })
        let line = try #require(lines[entry...].firstIndex { $0.contains("\"\(field)\": ") })
        var edited = lines
        edited[line] = lines[line].prefix { $0 != ":" } + ": \"\(value)\"" + (lines[line].hasSuffix(",") ? "," : "")
        let lockfile = try Lockfile(parsing: edited.joined(separator: "\n"))
        let reasons = lockfile.staleness(against: try Self.inputs())
        #expect(reasons == [.imageEdited("nginx:1.27")])
        #expect(reasons.first?.description.hasPrefix("the entry of image nginx:1.27 does not match its integrity digest") == true)
    }

    /// An edit whose integrity digest was recomputed by hand still cannot name another image or
    /// a media type no registry serves for a tag.
    @Test(arguments: [
        ("docker.io/evil/nginx:1.27", "application/vnd.oci.image.index.v1+json", "its name is docker.io/evil/nginx:1.27"),
        ("", "application/vnd.oci.image.index.v1+json", "its name is , not docker.io/library/nginx:1.27"),
        ("docker.io/library/nginx:1.27", "text/html", "its media type text/html is no image manifest or index"),
    ])
    func refusesAnEntryLockNeverWritesEvenWithAMatchingIntegrity(name: String, mediaType: String, reason: String) throws {
        var lockfile = try Self.lockfile()
        lockfile.images["nginx:1.27"] = Lockfile.Image(
            reference: "nginx:1.27", name: name, digest: Self.nginxDigest, mediaType: mediaType)
        let reasons = lockfile.staleness(against: try Self.inputs())
        #expect(reasons.count == 1)
        guard case .imageEntryInvalid("nginx:1.27", let found)? = reasons.first else {
            Issue.record("\(reasons)")
            return
        }
        #expect(found.hasPrefix(reason), "\(found)")
    }

    @Test func refusesAnotherFormatVersion() throws {
        var lockfile = try Self.lockfile()
        lockfile.formatVersion = 1
        #expect(try lockfile.staleness(against: Self.inputs()) == [.formatVersion(found: 1)])
        #expect(throws: LockfileError.self) { try Lockfile(parsing: lockfile.text) }
    }

    @Test(arguments: [
        ("", "not a stagebuild lockfile"),
        ("[]", "the document is not an object"),
        (#"{"formatVersion": 4.0}"#, "formatVersion is a JSON number, not an integer"),
        (#"{"formatVersion": 4, "formatVersion": 3}"#, "1:36: not a stagebuild lockfile: duplicate object key"),
        (#"{"formatVersion": 4}"#, "missing field"),
        (#"{"formatVersion": 2}"#, "format 2 is not the format 4"),
        (
            #"{"formatVersion": 4, "images": {}, "inputsDigest": "sha256:x", "packageArchives": {}, "packages": {}, "snapshots": {}, "templates": {}, "unverifiedPackages": []}"#,
            "inputsDigest"
        ),
        (
            #"{"formatVersion": 4, "images": [], "inputsDigest": "sha256:x", "packageArchives": {}, "packages": {}, "snapshots": {}, "templates": {}, "unverifiedPackages": []}"#,
            "images is a JSON array"
        ),
        (
            #"{"formatVersion": 4, "images": {}, "inputsDigest": "sha256:x", "packageArchives": {}, "packages": {}, "snapshots": {}, "templates": {}, "unverifiedPackages": [], "note": 1}"#,
            "note is not a field of a stagebuild lockfile"
        ),
        (
            #"{"formatVersion": 4, "images": {"a:1": {"digest": "sha256:\#(String(repeating: "0", count: 64))", "integrity": "sha256:\#(String(repeating: "0", count: 64))", "mediaType": "m", "name": "n", "reference": "b:1"}}, "inputsDigest": "sha256:\#(String(repeating: "0", count: 64))", "packages": {}, "snapshots": {}, "templates": {}, "unverifiedPackages": []}"#,
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
