import Foundation
import StageKit
import TestSupport
import Testing

/// A template name can never leave its catalog folder: not with `..`, not as an absolute
/// path, not into a subfolder, not through a symbolic link.
@Suite struct CatalogBoundaryTests {
    /// A temporary project on disk:
    ///
    ///     outside.Dockerfile              a valid template just outside the catalog
    ///     secret/passwd.Dockerfile        another one, further out
    ///     project/Stagefile
    ///     project/Stages/os.Dockerfile
    ///     project/Stages/a/b.Dockerfile   a template in a subfolder
    ///     project/Stages/escape.Dockerfile -> ../../outside.Dockerfile
    ///     project/Stages/alias.Dockerfile  -> os.Dockerfile (stays inside: allowed)
    ///     linked-catalog -> project/Stages (a catalog folder that is itself a link: allowed)
    final class Workspace {
        let scratch: Scratch
        var root: URL { scratch.url }

        init() throws {
            scratch = try Scratch(prefix: "stagekit-boundary")
            let layer = "# summary: must never be read\nRUN echo read-from-outside\n"
            try write(layer, to: "outside.Dockerfile")
            try write(layer, to: "secret/passwd.Dockerfile")
            try write("# summary: base\nFROM alpine:3.20\n", to: "project/Stages/os.Dockerfile")
            try write(layer, to: "project/Stages/a/b.Dockerfile")
            let files = FileManager.default
            try files.createSymbolicLink(
                atPath: root.path + "/project/Stages/escape.Dockerfile", withDestinationPath: "../../outside.Dockerfile")
            try files.createSymbolicLink(
                atPath: root.path + "/project/Stages/alias.Dockerfile", withDestinationPath: "os.Dockerfile")
            try files.createSymbolicLink(atPath: root.path + "/linked-catalog", withDestinationPath: "project/Stages")
        }

        func write(_ text: String, to path: String) throws { try scratch.write(text, to: path) }

        func compose(_ stagefile: String, catalog: String = "project/Stages") throws(CompositionError) -> String {
            let directory = root.path + "/project"
            let composer = Composer(
                catalog: StageCatalog(
                    folders: [root.path + "/" + catalog], fileSystem: LocalFileSystem(),
                    display: { Paths.relative($0, from: directory) }),
                stagefileDirectory: directory, stagefileName: "Stagefile", regenerateCommand: "stagebuild compose")
            return try composer.compose(try Stagefile(text: stagefile, displayPath: "Stagefile"))
        }

        func error(composing stagefile: String) -> CompositionError? {
            do {
                let output = try compose(stagefile)
                Issue.record("composed although it should fail:\n\(output)")
                return nil
            } catch {
                return error
            }
        }
    }

    @Test(arguments: [
        ("USE ../outside", "../outside"), ("USE ../../secret/passwd", "../../secret/passwd"),
        ("USE /etc/passwd", "/etc/passwd"), ("USE a/b", "a/b"), ("USE ./os", "./os"), ("USE .hidden", ".hidden"),
    ])
    func rejectsTemplateNamesThatAreNotPlainNames(line: String, name: String) throws {
        let workspace = try Workspace()
        let error = try #require(workspace.error(composing: "FROM stage:os\n\(line)\n"))
        #expect(
            error.description
                == "Stagefile:2:5: invalid template name '\(name)': use letters, digits, '.', '_' and '-' (a name cannot contain a path)"
        )
    }

    @Test func rejectsFromStageWithAnAbsolutePath() throws {
        let workspace = try Workspace()
        let error = try #require(workspace.error(composing: "FROM stage:/etc/passwd\n"))
        #expect(error.description.hasPrefix("Stagefile:1:6: invalid template name '/etc/passwd'"))
    }

    @Test func rejectsRequiresThatNameAPath() throws {
        let workspace = try Workspace()
        try workspace.write("# summary: sneaky\n# requires: ../../outside\nRUN echo\n", to: "project/Stages/sneaky.Dockerfile")
        let error = try #require(workspace.error(composing: "FROM stage:os\nUSE sneaky\n"))
        #expect(error.description.hasPrefix("Stages/sneaky.Dockerfile:2:1: invalid template name '../../outside'"))
    }

    @Test func rejectsSymlinkThatPointsOutOfTheCatalog() throws {
        let workspace = try Workspace()
        let error = try #require(workspace.error(composing: "FROM stage:os\nUSE escape\n"))
        #expect(
            error.description
                == "Stagefile:2:5: stage template 'escape' at Stages/escape.Dockerfile resolves outside its catalog folder; refusing to read it"
        )
    }

    @Test func followsSymlinksThatStayInsideTheCatalog() throws {
        let workspace = try Workspace()
        let output = try workspace.compose("FROM stage:alias\n")
        #expect(output.contains("# [alias] stage template Stages/alias.Dockerfile\nFROM alpine:3.20\n"))
        let throughLink = try workspace.compose("FROM stage:os\n", catalog: "linked-catalog")
        #expect(throughLink.contains("FROM alpine:3.20\n"))
        #expect(!throughLink.contains(workspace.root.path))
    }
}
