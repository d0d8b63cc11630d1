import DockerfileSyntax
import StageKit
import Testing

/// A composed Dockerfile is one BuildKit builds: instructions it does not know, template
/// references it cannot resolve and steps outside a build stage are errors, not output.
@Suite struct StagefileSoundnessTests {
    static let base = "# summary: base\nFROM alpine:3.20\n"
    static let layer = "# summary: layer\n# param VALUE: v\nARG VALUE=1\nRUN echo \"$VALUE\"\n"

    static func project(_ extra: [String: String] = [:]) -> MemoryProject {
        MemoryProject(templates: ["os": base, "echo": layer].merging(extra) { $1 })
    }

    @Test(arguments: [
        ("FROM stage:os\nRUUN echo\n", "Stagefile:2:1: unknown instruction RUUN; did you mean RUN?"),
        ("FROM stage:os\nUSES echo\n", "Stagefile:2:1: unknown instruction USES; did you mean USE?"),
        ("FROM stage:os\nONBUILD USE echo\n", "Stagefile:2:1: ONBUILD cannot trigger USE"),
        ("RUN echo\nFROM stage:os\n", "Stagefile:1:1: RUN comes before any FROM; only ARG may"),
        ("ARG X=1\n", "Stagefile: the Stagefile has no FROM"),
    ])
    func rejectsWhatBuildKitCouldNotBuild(stagefile: String, message: String) throws {
        let error = try #require(Self.project().error(composing: stagefile))
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    @Test func rejectsATemplateThatUsesAnotherTemplateDirectly() throws {
        let project = Self.project(["wrapper": "# summary: w\nUSE echo VALUE=2\n"])
        let error = try #require(project.error(composing: "FROM stage:os\nUSE wrapper\n"))
        #expect(error.description.hasPrefix("Stages/wrapper.Dockerfile:2:1: a stage template cannot use other templates"))
        #expect(error.message.contains("# requires:"))
    }

    @Test func keepsBuildKitsAutomaticArgumentsAsBuildArguments() throws {
        let platform = "# summary: p\nARG TARGETARCH\nARG HTTP_PROXY\nRUN echo \"$TARGETARCH\"\n"
        let output = try Self.project(["platform": platform]).compose("FROM stage:os\nUSE platform\n")
        #expect(output.contains("ARG TARGETARCH\nARG HTTP_PROXY\nRUN echo \"$TARGETARCH\"\n"), "\(output)")
    }

    @Test func keepsSourceDateEpochAsABuildArgumentNotARequiredParameter() throws {
        let dated = "# summary: d\nARG SOURCE_DATE_EPOCH\nRUN touch -d \"@$SOURCE_DATE_EPOCH\" /stamp\n"
        let output = try Self.project(["dated": dated]).compose("FROM stage:os\nUSE dated\n")
        #expect(output.contains("ARG SOURCE_DATE_EPOCH\nRUN touch -d \"@$SOURCE_DATE_EPOCH\" /stamp\n"), "\(output)")
    }

    @Test func bindsParametersOfABaseTemplateOnItsFromLine() throws {
        let base = "# summary: b\n# param SNAPSHOT: s\nFROM debian:bookworm-slim\nARG SNAPSHOT=\nRUN echo \"$SNAPSHOT\"\n"
        let output = try Self.project(["debian": base]).compose("FROM stage:debian AS app SNAPSHOT='2025 05'\n")
        #expect(output.contains("FROM debian:bookworm-slim AS app\nARG SNAPSHOT='2025 05'\n"), "\(output)")
        let unknown = try #require(Self.project(["debian": base]).error(composing: "FROM stage:debian SNAPSHOTS=1\n"))
        #expect(unknown.description.hasPrefix("Stagefile:1:19: stage template 'debian' has no parameter SNAPSHOTS"), "\(unknown)")
    }

    @Test func keepsAStagefilesLintPragmaOnTheFromItBecomes() throws {
        let output = try Self.project().compose("# stagebuild ignore=SB001 pinned elsewhere\nFROM stage:os AS a\n")
        #expect(
            output.contains(
                "# [os] stage template Stages/os.Dockerfile\n# stagebuild ignore=SB001 pinned elsewhere\nFROM alpine:3.20 AS a\n")
        )
        let findings = try Linter().lint(text: output)
        #expect(!findings.contains { $0.ruleID == "SB001" }, "\(findings)")
    }
}
