import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// The user's surface besides compose itself: `stages`, help, version, and usage errors
/// (`error: …`, the usage line, `See 'stagebuild … --help'.`, exit 64).
@Suite struct CommandSurfaceTests {
    static let catalogCase = Repository.fixtures.appendingPathComponent("composed/requires-order").path

    // MARK: - stages

    @Test func stagesListsEveryTemplateWithKindAndSummaryInNameOrder() {
        let result = runStagebuild(["stages"], in: Self.catalogCase)
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                NAME     KIND   SUMMARY
                certs    layer  CA certificates
                extra    layer  more tooling; the tools are already in the build stage
                os       base   Alpine base of the fixture catalog
                runtime  layer  a runtime built with the tools
                service  layer  a service on the runtime, with certificates
                tools    layer  build tools

                """)
    }

    @Test func stagesSaysWhichFilesItSkipsForTheirNames() throws {
        let scratch = try Scratch()
        try scratch.write("# summary: fine\nFROM alpine:3.20\n", to: "Stages/good.Dockerfile")
        try scratch.write("# summary: skipped\nFROM alpine:3.20\n", to: "Stages/bad name.Dockerfile")
        let result = scratch.run(["stages"])
        #expect(result.status == .success)
        #expect(result.stdout.contains("\ngood "))
        #expect(
            result.stderr
                == "warning: Stages/bad name.Dockerfile is skipped: a template name has letters, digits, '.', '_' and '-', and starts with a letter or digit\n"
        )
    }

    @Test func stagesNameShowsPathRequiresAndParameters() throws {
        let scratch = try Scratch(fixture: "rejected", "unknown-parameter")
        try scratch.write("# summary: needs others\n# requires: os-tools, certs\nRUN echo\n", to: "Stages/needy.Dockerfile")
        let web = scratch.run(["stages", "web"])
        #expect(web.status == .success)
        #expect(
            web.stdout == """
                web (layer)
                  a web server
                path:     Stages/web.Dockerfile
                requires: -
                usage:    USE web [KEY=VALUE ...]
                parameters:
                  PORT  required, unless the Stagefile has a global ARG of that name
                      port to listen on (required)
                  ROOT  default /srv/www
                      document root

                """)
        let needy = scratch.run(["stages", "needy"])
        #expect(needy.stdout.contains("\nrequires: os-tools, certs\n"))
        #expect(needy.stdout.hasSuffix("parameters: none\n"))
        let base = scratch.run(["stages", "os"])
        #expect(base.stdout.hasPrefix("os (base)\n"))
        #expect(base.stdout.contains("\nusage:    FROM stage:os [AS alias] [KEY=VALUE ...]\n"))
    }

    @Test func stagesNameAsJSONGivesTheSameFacts() throws {
        let result = runStagebuild(["stages", "service", "--format", "json"], in: Self.catalogCase)
        #expect(result.status == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "service")
        #expect(object["kind"] as? String == "layer")
        #expect(object["requires"] as? [String] == ["runtime", "certs"])
        #expect(object["path"] as? String == "Stages/service.Dockerfile")
    }

    /// A default is given as its value (quotes removed), and as written beside it.
    @Test func stagesAsJSONGivesADefaultAsItsValue() throws {
        let scratch = try Scratch()
        try scratch.write(
            "# summary: go build\nARG LDFLAGS=\"-s -w\"\nARG OUT=${HOME}/bin\nARG TAG\nRUN go build\n", to: "Stages/go.Dockerfile"
        )
        let result = scratch.run(["stages", "go", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["default"] as? String } == ["-s -w", "${HOME}/bin", nil])
        #expect(parameters.map { $0["defaultWord"] as? String } == ["\"-s -w\"", "${HOME}/bin", nil])
    }

    @Test func stagesWithAnUnknownNameSuggestsTheClosest() {
        let result = runStagebuild(["stages", "servce"], in: Self.catalogCase)
        #expect(result.status == .dataError)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: unknown stage template 'servce'"))
        #expect(result.stderr.contains("did you mean 'service'?"))
    }

    // MARK: - help and version

    @Test(arguments: [
        ["--help"], ["-h"], ["help"], ["compose", "--help"], ["compose", "-h"], ["help", "compose"],
        ["stages", "--help"], ["help", "stages"], ["compose", "Stagefile", "--check", "--help"],
    ])
    func helpGoesToStandardOutputWithStatusZero(arguments: [String]) {
        let result = runStagebuild(arguments, in: Self.catalogCase)
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        let command = arguments.first { ["compose", "stages"].contains($0) }
        #expect(result.stdout.contains("USAGE: stagebuild \(command.map { $0 + " " } ?? "<command>")"))
        if command != nil { #expect(result.stdout.contains("\n  -h, --help ")) }
    }

    @Test func composeHelpListsItsOptionsAndExitStatuses() {
        let help = runStagebuild(["compose", "--help"], in: Self.catalogCase).stdout
        for option in ["-o, --output FILE", "--check", "--stages DIR", "STAGEBUILD_STAGES"] { #expect(help.contains(option)) }
        for status in ["0 ", "1 ", "64 ", "65 ", "74 "] { #expect(help.contains(status)) }
    }

    @Test func versionPrintsTheVersion() {
        let result = runStagebuild(["--version"], in: Self.catalogCase)
        #expect(result.status == .success)
        #expect(result.stdout == "stagebuild \(StagebuildCommand.version)\n")
        #expect(result.stdout.wholeMatch(of: /stagebuild \d+\.\d+\.\d+\n/) != nil)
        #expect(result.stderr.isEmpty)
    }

    // MARK: - usage errors

    @Test func unknownCommandExitsSixtyFourPointingAtHelp() {
        let result = runStagebuild(["frobnicate"], in: Self.catalogCase)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: unknown command 'frobnicate'\nUSAGE: stagebuild <command> [options]\nSee 'stagebuild --help'.\n")
    }

    @Test func misspeltCommandSuggestsTheRightOne() {
        let result = runStagebuild(["compse"], in: Self.catalogCase)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: unknown command 'compse'; did you mean 'compose'?\n"))
    }

    @Test func noArgumentsPrintsTheOverviewOnStandardErrorWithSixtyFour() {
        let result = runStagebuild([], in: Self.catalogCase)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("OVERVIEW: "))
    }

    @Test(arguments: [
        (["compose", "--bogus"], "unknown option '--bogus'", "compose"),
        (["compose", "--chek"], "unknown option '--chek'; did you mean '--check'?", "compose"),
        (["compose", "-o"], "option '-o' needs a value (FILE)", "compose"),
        (["compose", "--check=yes"], "option '--check' takes no value", "compose"),
        (["compose", "a", "b"], "expected at most one Stagefile, got 2", "compose"),
        (["stages", "--bogus"], "unknown option '--bogus'", "stages"),
        (["stages", "--format", "yaml"], "--format must be text or json, not 'yaml'", "stages"),
        (["stages", "a", "b"], "expected at most one template name", "stages"),
    ])
    func usageErrorsExitSixtyFourWithUsageAndHelpHint(arguments: [String], message: String, command: String) throws {
        let scratch = try Scratch(fixture: "composed", "requires-order")
        let before = scratch.listing()
        let result = scratch.run(arguments)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        let usage = result.stderr.split(separator: "\n").map(String.init)
        #expect(usage.count == 3)
        #expect(usage.first == "error: \(message)")
        #expect(usage.dropFirst().first?.hasPrefix("USAGE: stagebuild \(command) ") == true)
        #expect(usage.last == "See 'stagebuild \(command) --help'.")
        #expect(scratch.listing() == before)
    }
}
