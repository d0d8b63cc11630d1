import DockerfileSyntax
import StageKit
import Testing

@Suite struct PackagePinTests {
    @Test func composedPinsComeFromEveryAptGetInstallOfStagefileAndTemplates() throws {
        let project = MemoryProject(templates: [
            "base": "FROM debian:bookworm-slim\nRUN apt-get install -y curl=7.88.1-10+deb12u12 git\n",
            "tools": "# summary: tools\nRUN <<EOF\napt-get install -y --no-install-recommends jq=1.6-2.1 ./local.deb\nEOF\n",
        ])
        let stagefile = try Stagefile(
            text: """
                FROM stage:base
                USE tools
                RUN apt install -y "libc6:i386=2.36-9" \\
                    zlib1g=1:1.2.13.dfsg-1
                RUN echo apt-get install nothing=1
                USER 1000

                """, displayPath: "Stagefile")
        let composition = try project.composer.composition(of: stagefile)
        #expect(
            composition.packagePins.map(\.written) == [
                "libc6:i386=2.36-9", "zlib1g=1:1.2.13.dfsg-1", "curl=7.88.1-10+deb12u12", "jq=1.6-2.1",
            ])
        let quoted = try #require(composition.packagePins.first)
        #expect(quoted.name == "libc6" && quoted.architecture == "i386" && quoted.version == "2.36-9" && quoted.isQuoted)
        let zlib = composition.packagePins[1]
        #expect(zlib.file == "Stagefile" && zlib.location == SourceLocation(line: 4, column: 5) && !zlib.isQuoted)
        #expect(composition.packagePins[3].location.line == 3)
        let inputs = try composition.lockInputs()
        #expect(inputs.packages == ["curl=7.88.1-10+deb12u12", "jq=1.6-2.1", "libc6:i386=2.36-9", "zlib1g=1:1.2.13.dfsg-1"])
    }

    /// A version written through a build argument could change what the lock pinned: lock
    /// refuses it at its place, as it refuses an image named through a variable.
    @Test func aPinWrittenThroughAVariableIsRefusedWhereItStands() throws {
        let project = MemoryProject(templates: ["base": "FROM debian:bookworm-slim\n"])
        let stagefile = try Stagefile(
            text: "FROM stage:base\nARG V=1\nRUN apt-get install -y --no-install-recommends curl=${V}\nUSER 1000\n",
            displayPath: "Stagefile")
        let composition = try project.composer.composition(of: stagefile)
        #expect(composition.packagePins.isEmpty)
        let error = try #require(throws: CompositionError.self) { try composition.lockInputs() }
        #expect(error.description.hasPrefix("Stagefile:3:48: apt-get install curl=${V} names its package or version"))
    }
}
