import Foundation
import TestSupport
import Testing

/// Where compose finds its catalog, and how the output names it: from the Stagefile's folder,
/// never the working directory, and the same however the folder was reached.
@Suite struct CatalogSearchTests {
    @Test func findsTheStagesFolderBesideTheStagefileFromAnyWorkingDirectory() throws {
        let scratch = try Scratch()
        try scratch.write("FROM alpine:3.20\n", to: "Stages/base.Dockerfile")
        try scratch.write("FROM debian:12\n", to: "service/Stages/base.Dockerfile")
        try scratch.write("FROM stage:base\n", to: "service/Stagefile")
        let fromRoot = scratch.run(["compose", "service/Stagefile"])
        let fromInside = scratch.run(["compose", "Stagefile"], in: "service")
        #expect(fromRoot.status == .success, "\(fromRoot.stderr)")
        #expect(fromRoot.stdout.contains("\nFROM debian:12\n"))
        #expect(fromInside.stdout == fromRoot.stdout)
    }

    @Test func searchesUpwardsFromTheStagefileUpToTheRepositoryRoot() throws {
        let scratch = try Scratch()
        try scratch.write("", to: "repo/.git/HEAD")
        try scratch.write("FROM alpine:3.20\n", to: "repo/Stages/base.Dockerfile")
        try scratch.write("FROM stage:base\n", to: "repo/examples/app/Stagefile")
        try scratch.write("FROM stage:base\n", to: "repo/inner/Stagefile")
        try scratch.write("", to: "repo/inner/.git/HEAD")
        let example = scratch.run(["compose", "../examples/app/Stagefile"], in: "repo/inner")
        #expect(example.status == .success, "\(example.stderr)")
        #expect(example.stdout.contains("\n# [base] stage template ../../Stages/base.Dockerfile\nFROM alpine:3.20\n"))
        #expect(
            example.stdout.contains(
                "# Regenerate with: stagebuild compose Stagefile -o Dockerfile (run in the Stagefile's folder)\n"))
        // A nested repository is its own project: the search stops at its root.
        let nested = scratch.run(["compose", "inner/Stagefile"], in: "repo")
        #expect(nested.status == .dataError)
        #expect(nested.stderr.contains("unknown stage template 'base'"))
    }

    @Test func namesTheCatalogTheSameHoweverItWasReached() throws {
        let scratch = try Scratch()
        try scratch.write("FROM alpine:3.20\n", to: "project/catalog/base.Dockerfile")
        try scratch.write("FROM stage:base\n", to: "project/Stagefile")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/project/linked", withDestinationPath: "catalog")
        let given = scratch.run(["compose", "--stages", "catalog"], in: "project")
        let linked = scratch.run(["compose", "--stages", "linked"], in: "project")
        let environment = scratch.run(["compose"], in: "project", environment: ["STAGEBUILD_STAGES": "catalog"])
        let fromOutside = scratch.run(["compose", "project/Stagefile", "--stages", "project/linked"])
        #expect(given.status == .success, "\(given.stderr)")
        #expect(given.stdout.contains("\n# [base] stage template catalog/base.Dockerfile\n"))
        #expect(given.stdout.contains("# Regenerate with: stagebuild compose Stagefile -o Dockerfile --stages catalog (run"))
        #expect(linked.stdout == given.stdout)
        #expect(environment.stdout == given.stdout)
        #expect(fromOutside.stdout == given.stdout)
        try scratch.write(given.stdout, to: "project/Dockerfile")
        #expect(scratch.run(["compose", "--check", "--stages", "linked"], in: "project").status == .success)
    }

    /// A shared catalog checked out once per machine, the project at a laptop's depth and at a
    /// CI runner's: the header names the catalog as DIR, so the committed file is current in both.
    @Test func aCatalogOutsideTheProjectGivenByOptionLeavesNoPathInTheOutput() throws {
        let scratch = try Scratch()
        try scratch.write("# summary: base\nFROM alpine:3.20\n", to: "catalog/Stages/base.Dockerfile")
        for checkout in ["laptop/app", "ci/w/app/app"] {
            try scratch.write("", to: checkout + "/.git/HEAD")
            try scratch.write("FROM stage:base\n", to: checkout + "/Stagefile")
        }
        let catalog = scratch.path + "/catalog/Stages"
        let laptop = scratch.run(["compose", "--stages", catalog, "-o", "Dockerfile"], in: "laptop/app")
        #expect(laptop.status == .success, "\(laptop.stderr)")
        let composed = try #require(scratch.text("laptop/app/Dockerfile"))
        #expect(
            composed.contains(
                "# Regenerate with: stagebuild compose Stagefile -o Dockerfile --stages DIR (run in the Stagefile's "
                    + "folder; DIR: the catalog folder outside the project that --stages named)\n"))
        #expect(!composed.contains(scratch.path) && !composed.contains("../"))
        try scratch.write(composed, to: "ci/w/app/app/Dockerfile")
        let ci = scratch.run(["compose", "--check", "--stages", "../../../../catalog/Stages"], in: "ci/w/app/app")
        #expect(ci.status == .success, "\(ci.stdout)\(ci.stderr)")
        // The same catalog checked out elsewhere composes the same bytes.
        try scratch.write("# summary: base\nFROM alpine:3.20\n", to: "opt/shared/Stages/base.Dockerfile")
        let elsewhere = scratch.run(["compose", "--stages", scratch.path + "/opt/shared/Stages"], in: "ci/w/app/app")
        #expect(elsewhere.stdout == composed, "\(elsewhere.stderr)")
    }

    @Test func anEmptyCatalogListingNamesTheFoldersSearched() throws {
        let scratch = try Scratch()
        try scratch.write("not a template\n", to: "empty/README")
        let result = scratch.run(["stages", "--stages", "empty"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("no stage templates found on the catalog search path (searched empty"))
    }

    @Test func namesACatalogOutsideTheProjectByItsSearchPathEntry() throws {
        let scratch = try Scratch()
        try scratch.write("FROM alpine:3.20\n", to: "shared/base.Dockerfile")
        try scratch.write("", to: "project/.git/HEAD")
        try scratch.write("FROM stage:base\n", to: "project/Stagefile")
        let result = scratch.run(["compose"], in: "project", environment: ["STAGEBUILD_STAGES": scratch.path + "/shared"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("\n# [base] stage template base.Dockerfile (catalog from STAGEBUILD_STAGES)\n"))
        #expect(result.stdout.contains("(run in the Stagefile's folder with STAGEBUILD_STAGES set)\n"))
        #expect(!result.stdout.contains(scratch.path))
    }
}

@Suite struct CatalogSearchWarningTests {
    @Test func aMissingSTAGEBUILDSTAGESFolderIsSaidNotSilentlySkipped() throws {
        let scratch = try Scratch()
        try scratch.write("FROM alpine:3.20\n", to: "Stages/base.Dockerfile")
        try scratch.write("FROM stage:base\n", to: "Stagefile")
        let result = scratch.run(["compose"], environment: ["STAGEBUILD_STAGES": "/nonexistent/catalog"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stderr == "warning: STAGEBUILD_STAGES names /nonexistent/catalog, which does not exist; it is skipped\n")
    }
}
