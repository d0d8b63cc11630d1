import DockerfileSyntax
import StageKit
import Testing

/// Templates say which apt archive they add (`# apt-archive:`), and each build stage's package
/// pins are read with the archives of the templates placed in it.
@Suite struct AptArchiveTests {
    static let debian = """
        # summary: a Debian base
        # apt-archive: debian release=${DEBIAN_RELEASE} snapshot=${DEBIAN_SNAPSHOT}
        ARG DEBIAN_RELEASE=bookworm
        FROM debian:${DEBIAN_RELEASE}-slim
        ARG DEBIAN_RELEASE
        ARG DEBIAN_SNAPSHOT=

        """
    static let vendor = """
        # summary: a vendor repository
        # apt-archive: repository url=${URL} suites=${SUITE} components=${COMPONENTS} key=${KEY}
        ARG URL
        ARG SUITE=bookworm
        ARG COMPONENTS="stable edge"
        ARG KEY=vendor.asc

        """

    static func composition(_ stagefile: String) throws -> Composition {
        let project = MemoryProject(templates: ["debian": debian, "vendor": vendor])
        return try project.composer.composition(of: try Stagefile(text: stagefile, displayPath: "Stagefile"))
    }

    @Test func eachBuildStageReadsTheArchivesOfItsOwnTemplates() throws {
        let composition = try Self.composition(
            """
            FROM stage:debian AS one DEBIAN_RELEASE=trixie DEBIAN_SNAPSHOT=20250520T000000Z
            USE vendor URL=https://apt.vendor.test/debian
            RUN apt-get install -y tool=1.0-1
            FROM stage:debian AS two
            RUN apt-get install -y curl=7.88.1-10
            FROM two AS three
            RUN apt-get install -y -t bookworm-backports late=2.0
            FROM scratch AS four
            RUN apt-get install -y lost=1

            """)
        let stages = composition.packageStages
        #expect(stages.map(\.name) == ["one", "two", "three", "four"])
        #expect(stages.map { $0.pins.map(\.written) } == [["tool=1.0-1"], ["curl=7.88.1-10"], ["late=2.0"], ["lost=1"]])
        let one = stages[0].archives
        #expect(one.map(\.kind) == [.debian, .repository])
        #expect(one[0].release == "trixie" && one[0].snapshot == "20250520T000000Z")
        #expect(one[0].snapshotParameter == "DEBIAN_SNAPSHOT")
        #expect(
            one[0].sources(architecture: "amd64").map(\.url) == [
                "http://snapshot.debian.org/archive/debian/20250520T000000Z",
                "http://snapshot.debian.org/archive/debian-security/20250520T000000Z",
            ])
        #expect(one[0].sources(architecture: "amd64").flatMap(\.suites) == ["trixie", "trixie-updates", "trixie-security"])
        #expect(one[1].components == ["stable", "edge"], "a quoted default, its words as apt reads them")
        #expect(one[1].keyring == .buildContext("vendor.asc"))
        #expect(stages[1].archives.map(\.release) == ["bookworm"])
        #expect(stages[1].archives[0].snapshot == nil, "live: no snapshot given")
        #expect(stages[2].archives == stages[1].archives, "a stage FROM another reads its archives")
        #expect(stages[2].pins.first?.targetRelease == "bookworm-backports")
        #expect(stages[3].archives.isEmpty)
        #expect(composition.snapshotParameters == ["DEBIAN_SNAPSHOT"])
    }

    @Test func ubuntuReadsPortsForOtherArchitecturesAndEveryPocketAtASnapshot() {
        let live = AptArchive(kind: .ubuntu, release: "noble", components: ["main"], keyring: .file("/k"))
        #expect(
            live.sources(architecture: "amd64").map(\.url) == [
                "http://archive.ubuntu.com/ubuntu", "http://security.ubuntu.com/ubuntu",
            ])
        #expect(live.sources(architecture: "arm64").map(\.url) == ["http://ports.ubuntu.com/ubuntu-ports"])
        var snapshot = live
        snapshot.snapshot = "20251201T000000Z"
        snapshot.snapshotURL = "https://snapshot.ubuntu.com/"
        #expect(
            snapshot.sources(architecture: "arm64").map(\.url) == ["https://snapshot.ubuntu.com/ubuntu-ports/20251201T000000Z"])
        #expect(snapshot.sources(architecture: "amd64").flatMap(\.suites) == ["noble", "noble-updates", "noble-security"])
    }

    @Test(arguments: [
        ("# apt-archive: gentoo release=x\nARG A\n", "the first word names the archive's kind"),
        ("# apt-archive: debian release=x colour=blue\nARG A\n", "a debian archive has no field 'colour'"),
        ("# apt-archive: repository url=${A}\nARG A\n", "needs the field suites="),
        ("# apt-archive: repository url=${A} suites=b\nARG A\n", "names the key it is signed with"),
        ("# apt-archive: debian release=${B}\nARG A\n", "reads something other than the template's parameters"),
    ])
    func refusesDeclarationsItCannotRead(template: String, message: String) {
        let project = MemoryProject(templates: ["t": template])
        let error = project.error(composing: "FROM debian:12\nUSE t A=1\n")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.file == "Stages/t.Dockerfile")
    }

    /// Sources a RUN brings in without a file edit: a list mounted where apt reads its sources,
    /// or apt pointed at another list. A pin apt may find there cannot be checked.
    @Test(arguments: [
        "RUN --mount=type=bind,source=extra.list,target=/etc/apt/sources.list.d/extra.list apt-get install -y a=1",
        "RUN --mount=type=secret,id=list,dst=/etc/apt/sources.list apt-get install -y a=1",
        "RUN apt-get -o Dir::Etc::SourceList=/tmp/x.list update && apt-get install -y a=1",
        "RUN apt-get -oDir::Etc::SourceParts=/tmp/parts install -y a=1",
        "RUN --mount=type=bind,source=x.list,target=/etc/apt//sources.list.d/./x.list apt-get install -y a=1",
        "RUN --mount=type=bind,source=x.list,target=etc/apt/sources.list.d/x.list apt-get install -y a=1",
        "RUN --mount=type=bind,source=etc,target=/etc apt-get install -y a=1",
        "RUN APT_CONFIG=/x/apt.conf apt-get install -y a=1",
        "RUN apt-get -c /x/apt.conf install -y a=1",
        "RUN apt-get -o Dir=/x install -y a=1",
        "COPY . /etc/apt/",
        "COPY rootfs/ /",
    ])
    func sourcesARunBringsInAreSourceEdits(run: String) throws {
        let composition = try Self.composition("FROM stage:debian\n\(run)\nRUN apt-get install -y b=1\n")
        let stage = try #require(composition.packageStages.first)
        #expect(stage.sourceEdits.map(\.location.line) == [2], "\(stage.sourceEdits)")
    }

    /// A relative path is joined with the WORKDIR in force, as BuildKit joins it.
    @Test func aRelativeTargetIsReadFromTheWorkdir() throws {
        let composition = try Self.composition(
            "FROM stage:debian\nWORKDIR /etc/apt/sources.list.d\nCOPY extra.list .\nRUN apt-get install -y a=1\n")
        #expect(try #require(composition.packageStages.first).sourceEdits.map(\.location.line) == [3])
        let elsewhere = try Self.composition(
            "FROM stage:debian\nWORKDIR /app\nCOPY . .\nRUN rm -f /etc/apt/apt.conf.d/docker-clean && apt-get install -y a=1\n")
        #expect(try #require(elsewhere.packageStages.first).sourceEdits.isEmpty)
    }

    @Test func aSnapshotThatIsNoTimeIsAnErrorAtThePlacement() throws {
        let project = MemoryProject(templates: ["debian": Self.debian])
        let error = project.error(composing: "FROM stage:debian DEBIAN_SNAPSHOT=yesterday\n")
        #expect(error?.message.contains("DEBIAN_SNAPSHOT=yesterday is no snapshot time") == true, "\(String(describing: error))")
        #expect(error?.location == SourceLocation(line: 1, column: 6))
    }

    @Test(arguments: [
        ("ubuntu:24.04", "FROM stage:ubuntu UBUNTU_RELEASE=noble instead of FROM ubuntu:24.04"),
        ("ubuntu:jammy-20240101", "FROM stage:ubuntu UBUNTU_RELEASE=jammy"),
        ("debian:12-slim", "FROM stage:debian DEBIAN_RELEASE=bookworm"),
        ("debian:trixie", "FROM stage:debian DEBIAN_RELEASE=trixie"),
        ("alpine:3.20", "base it on a template that declares its apt archive"),
    ])
    func anUndeclaredStageIsToldWhatToDeclare(image: String, hint: String) throws {
        let resolution = try StagePackageResolution(
            [
                Composition.PackageStage(
                    name: "app", image: image,
                    pins: [
                        try #require(
                            PackagePin(operand: "a=1", file: "Stagefile", location: .init(line: 1, column: 1), isQuoted: false))
                    ])
            ], resolver: AptPackageResolver(transport: NoTransport(), signatureCheck: NoCheck(), architecture: "amd64"))
        #expect(resolution.unverified.first?.declare.contains(hint) == true, "\(resolution.unverified)")
        #expect(resolution.unverified.first?.why == "build stage app declares no apt archive")
    }
}

/// A transport that must never be used (a stage without archives reads nothing).
struct NoTransport: RegistryTransport {
    func send(_ request: RegistryRequest) throws(RegistryTransportError) -> RegistryResponse {
        Issue.record("no request expected: \(request)")
        throw RegistryTransportError(.other, "no network in this test")
    }
}

/// A signature check that must never be used.
struct NoCheck: ArchiveSignatureCheck {
    func verifiedText(of signed: [UInt8], keyring: AptKeyring) throws(ArchiveSignatureError) -> [UInt8] {
        Issue.record("no signature check expected")
        throw ArchiveSignatureError("no check in this test")
    }
}

/// A base template's FROM may read parameters declared before it.
@Suite struct FromParameterTests {
    static let go = """
        # summary: a Go builder
        # param GO_VERSION: the Go release
        ARG GO_VERSION=1.22
        FROM golang:${GO_VERSION}-bookworm
        ARG GO_VERSION
        RUN go version

        """

    @Test func composesTheValueIntoTheFromAndTheStagesArgument() throws {
        let project = MemoryProject(templates: ["go": Self.go])
        let output = try project.compose("FROM stage:go AS build GO_VERSION=1.23.4\nFROM stage:go AS old\n")
        #expect(output.contains("\nFROM golang:1.23.4-bookworm AS build\nARG GO_VERSION=1.23.4\nRUN go version\n"), "\(output)")
        #expect(output.contains("\nFROM golang:1.22-bookworm AS old\nARG GO_VERSION=1.22\n"), "\(output)")
        #expect(!output.contains("ARG GO_VERSION=1.22\nFROM"), "no global ARG is left: \(output)")
        let composition = try project.composer.composition(
            of: try Stagefile(text: "FROM stage:go GO_VERSION=1.23.4\n", displayPath: "Stagefile"))
        #expect(composition.images.map(\.written) == ["golang:1.23.4-bookworm"])
    }

    @Test func aValueThatWouldAddAWordIsRefusedAtItsBinding() throws {
        let project = MemoryProject(templates: ["go": Self.go])
        let error = project.error(composing: "FROM stage:go GO_VERSION=\"1 --platform=x\"\n")
        #expect(
            error?.message.contains("goes into stage template 'go''s FROM image reference") == true,
            "\(String(describing: error))")
    }

    @Test(arguments: [
        ("ARG A=1\nFROM img:${B}\n", "reads only the parameters declared before it"),
        ("ARG A=1\nFROM img:${A:-2}\n", "reads only the parameters declared before it"),
        ("RUN true\nFROM img:1\n", "after only the ARG lines its FROM reads"),
        ("ARG A=1\nFROM img:${A}\nARG A=2\n", "declare it again after FROM without one"),
    ])
    func refusesFromLinesItCannotCompose(template: String, message: String) {
        let project = MemoryProject(templates: ["t": "# summary: t\n" + template])
        let error = project.error(composing: "FROM stage:t\n")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
