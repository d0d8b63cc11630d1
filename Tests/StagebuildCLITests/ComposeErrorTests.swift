import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// Every error class of issue 2 part 5 through the command line: the message
/// (`file:line:column: error: …` with the words a user acts on), the exit status, and that
/// no output file appears and an existing one keeps its bytes, date and inode.
@Suite struct ComposeErrorTests {
    /// Composes the Stagefile in `scratch` (or in its subfolder `folder`) in every way that
    /// could write output, and checks that each run fails the same way and leaves the files
    /// as they were.
    func expectRejected(
        _ scratch: Scratch, in folder: String? = nil, at position: String, mentions words: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let output = folder.map { $0 + "/Dockerfile" } ?? "Dockerfile"
        let before = scratch.listing()
        var messages: [String] = []
        func run(_ arguments: [String], _ label: String) {
            let result = scratch.run(arguments, in: folder)
            #expect(result.status == .dataError, "\(label)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(label)", sourceLocation: sourceLocation)
            messages.append(result.stderr)
        }
        run(["compose"], "to stdout")
        run(["compose", "Stagefile", "-o", "Dockerfile"], "-o to a new file")
        #expect(scratch.listing() == before, "a failed compose created a file", sourceLocation: sourceLocation)

        let old = "# an earlier Dockerfile\nFROM scratch\n"
        try scratch.write(old, to: output)
        try scratch.backdate(output)
        let stamp = try scratch.stamp(output)
        run(["compose", "Stagefile", "-o", "Dockerfile"], "-o over an existing file")
        run(["compose", "--check"], "--check of an existing file")
        #expect(scratch.text(output) == old, "the existing output changed", sourceLocation: sourceLocation)
        let after = try scratch.stamp(output)
        #expect(after.modified == stamp.modified, "the existing output was rewritten", sourceLocation: sourceLocation)
        #expect(after.inode == stamp.inode, "the existing output was replaced", sourceLocation: sourceLocation)
        #expect(scratch.listing() == (before + [output]).sorted(), "a failed compose left a file", sourceLocation: sourceLocation)

        try #require(messages.count >= 1)
        let message = messages[0]
        #expect(Set(messages).count == 1, "the runs reported different errors: \(messages)", sourceLocation: sourceLocation)
        #expect(message.hasPrefix(position + ": error: "), "\(message)", sourceLocation: sourceLocation)
        #expect(
            message.hasSuffix("\n") && message.split(separator: "\n").count == 1, "\(message)", sourceLocation: sourceLocation)
        for word in words {
            #expect(
                message.contains(word), "\(message.debugDescription) does not mention \(word.debugDescription)",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: - Templates and parameters

    @Test func rejectsUnknownTemplateListingTheClosestNames() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "unknown-template"), at: "Stagefile:2:5",
            mentions: ["unknown stage template 'node-runtme'", "searched Stages", "did you mean 'node-runtime'?"])
    }

    @Test func rejectsUnknownParameterNamingTheTemplatesParameters() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "unknown-parameter"), at: "Stagefile:2:17",
            mentions: ["stage template 'web' has no parameter PROT", "its parameters: PORT, ROOT", "did you mean PORT"])
    }

    @Test func rejectsMissingRequiredParameter() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "missing-parameter"), at: "Stagefile:2:5",
            mentions: ["stage template 'web' needs a value for its parameter PORT"])
    }

    @Test func rejectsMissingRequiredParameterOfATemplatePulledInByRequires() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "missing-parameter-via-requires"), at: "Stagefile:3:5",
            mentions: [
                "stage template 'runtime' needs a value for its parameter VERSION", "required by 'service'",
                "USE runtime VERSION=",
            ])
    }

    @Test func rejectsLayerTemplateUsedWithFromStage() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "layer-used-as-base"), at: "Stagefile:1:6",
            mentions: ["'tools' is a layer template", "has no FROM", "USE tools"])
    }

    @Test func rejectsBaseTemplateUsedWithUse() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "base-used-with-use"), at: "Stagefile:2:5",
            mentions: ["'builder' is a base template", "FROM stage:builder"])
    }

    @Test func rejectsLayerTemplateThatRequiresABaseTemplate() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "layer-requires-base"), at: "Stages/tools.Dockerfile:2:1",
            mentions: ["'os' is a base template", "'tools' cannot require it"])
    }

    @Test func rejectsOneParameterBoundToTwoValuesInABuildStageNamingBothTemplatesAndValues() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "conflicting-values"), at: "Stagefile:3:13",
            mentions: ["parameter PORT", "8080", "'api'", "9090", "'metrics'", "one build stage"])
    }

    @Test func rejectsRequiresCyclePrintingTheCycle() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "requires-cycle"), at: "Stages/beta.Dockerfile:2:1",
            mentions: ["requires cycle: alpha -> beta -> alpha"])
    }

    @Test func rejectsUseOfATemplateAlreadyRequiredInTheBuildStage() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "already-placed"), at: "Stagefile:3:5",
            mentions: ["'runtime' is already in this build stage", "required by service", "move this USE before"])
    }

    @Test func rejectsTheSameUseTwiceInABuildStage() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "used-twice"), at: "Stagefile:4:5",
            mentions: ["'runtime' is already in this build stage", "USE at line 2"])
    }

    // MARK: - Directives

    @Test func rejectsTemplateWhoseEscapeCharacterDiffersFromTheStagefiles() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "escape-mismatch"), at: "Stagefile:2:5",
            mentions: ["'win-paths' uses the escape character `", "Stagefile uses \\"])
    }

    @Test func rejectsTemplateAskingForAnotherSyntaxThanTheStagefile() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "syntax-conflict-with-stagefile"), at: "Stagefile:2:6",
            mentions: ["# syntax=docker/dockerfile:1.4", "Stagefile asks for # syntax=docker/dockerfile:1.7"])
    }

    @Test func rejectsTwoTemplatesAskingForDifferentSyntaxes() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "syntax-conflict-between-templates"), at: "Stagefile:2:5",
            mentions: ["'heredocs' asks for # syntax=docker/dockerfile:1.4", "os asks for # syntax=docker/dockerfile:1.7"])
    }

    // MARK: - Parameter values

    @Test func rejectsParameterValueWithUnbalancedQuote() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "value-unbalanced-quote"), at: "Stagefile:2:20",
            mentions: ["value of GREETING", "matching double-quote"])
    }

    @Test func rejectsParameterValueThatRunsOntoTheNextLine() throws {
        try expectRejected(
            Scratch(fixture: "rejected", "value-split-across-lines"), at: "Stagefile:2:20",
            mentions: ["value of GREETING", "matching double-quote"])
    }

    @Test(arguments: [
        ("carriage return in quotes", "USE greet GREETING=\"one\rRUN id\"", "Stagefile:2:24", "newline, carriage return or NUL"),
        ("escaped carriage return", "USE greet GREETING=one\\\rRUN", "Stagefile:2:24", "newline, carriage return or NUL"),
        ("NUL", "USE greet GREETING=one\u{0}two", "Stagefile:2:23", "newline, carriage return or NUL"),
        // Unquoted, a carriage return separates words as a space does: the rest is no binding.
        (
            "bare carriage return", "USE greet GREETING=one\rRUN id", "Stagefile:2:24",
            "expected KEY=VALUE after the template name, found 'RUN'"
        ),
    ])
    func rejectsParameterValueWithAControlCharacter(label: String, line: String, position: String, message: String) throws {
        let scratch = try Scratch(fixture: "rejected", "value-unbalanced-quote")
        try scratch.write("FROM stage:os\n\(line)\n", to: "Stagefile")
        try expectRejected(scratch, at: position, mentions: [message])
    }

    // MARK: - Template names

    /// A catalog with a valid template just outside it and a link that points there.
    func catalogWithAWayOut() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("# summary: base\nFROM alpine:3.20\n", to: "project/Stages/os.Dockerfile")
        try scratch.write("# summary: outside\nRUN echo read-from-outside\n", to: "outside.Dockerfile")
        try scratch.write("# summary: nested\nRUN echo nested\n", to: "project/Stages/a/b.Dockerfile")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/project/Stages/link.Dockerfile", withDestinationPath: "../../outside.Dockerfile")
        return scratch
    }

    @Test(arguments: [
        ("USE ../outside", "Stagefile:2:5", "'../outside'"),
        ("USE ../../outside", "Stagefile:2:5", "'../../outside'"),
        ("USE /etc/passwd", "Stagefile:2:5", "'/etc/passwd'"),
        ("USE a/b", "Stagefile:2:5", "'a/b'"),
        ("FROM stage:../Stages/os", "Stagefile:2:6", "'../Stages/os'"),
    ])
    func rejectsTemplateNamesThatLeaveTheCatalog(line: String, position: String, name: String) throws {
        let scratch = try catalogWithAWayOut()
        try scratch.write("FROM stage:os\n\(line)\n", to: "project/Stagefile")
        try expectRejected(
            scratch, in: "project", at: position, mentions: ["invalid template name \(name)", "cannot contain a path"])
    }

    @Test func rejectsSymlinkInTheCatalogThatPointsOutsideIt() throws {
        let scratch = try catalogWithAWayOut()
        try scratch.write("FROM stage:os\nUSE link\n", to: "project/Stagefile")
        try expectRejected(
            scratch, in: "project", at: "Stagefile:2:5",
            mentions: [
                "stage template 'link' at Stages/link.Dockerfile resolves outside its catalog folder", "refusing to read it",
            ])
    }

    // MARK: - Found while writing these tests

    @Test func rejectsUseBeforeAnyFrom() throws {
        let scratch = try Scratch(fixture: "rejected", "used-twice")
        try scratch.write("USE runtime\nFROM stage:os\n", to: "Stagefile")
        try expectRejected(scratch, at: "Stagefile:1:5", mentions: ["USE runtime comes before any FROM"])
    }

    @Test func rejectsTemplateEndingInALineContinuationAtItsOwnPosition() throws {
        let scratch = try Scratch(fixture: "rejected", "used-twice")
        try scratch.write("# summary: runtime\nRUN echo runtime \\\n", to: "Stages/runtime.Dockerfile")
        try scratch.write("FROM stage:os\nUSE runtime\nRUN echo next\n", to: "Stagefile")
        try expectRejected(scratch, at: "Stages/runtime.Dockerfile:2:1", mentions: ["ends with a line continuation"])
    }

    @Test func rejectsMalformedTemplateAtItsOwnPosition() throws {
        let scratch = try Scratch(fixture: "rejected", "used-twice")
        try scratch.write(
            "# summary: runtime\n# param VERSION: documented, never declared\nRUN echo\n", to: "Stages/runtime.Dockerfile")
        try scratch.write("FROM stage:os\nUSE runtime\n", to: "Stagefile")
        try expectRejected(scratch, at: "Stages/runtime.Dockerfile:2:1", mentions: ["'# param VERSION' documents a parameter"])
    }

    @Test func reportsABindingOnAContinuationLineWhereItIsWritten() throws {
        let scratch = try Scratch(fixture: "rejected", "unknown-parameter")
        try scratch.write("FROM stage:os\nUSE web \\\n    PORT=80 \\\n    PROT=8080\n", to: "Stagefile")
        try expectRejected(scratch, at: "Stagefile:4:5", mentions: ["no parameter PROT"])
    }
}
