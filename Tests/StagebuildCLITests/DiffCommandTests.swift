import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild diff` on a git repository holding the shipped example and catalog: each kind
/// of change named in the project's terms, the three formats, the exit statuses and the errors.
@Suite struct DiffCommandTests {
    /// A git repository with the catalog at `Stages/` and the example at `ex/`, committed once.
    static func repository() throws -> Scratch {
        let scratch = try Scratch()
        let files = FileManager.default
        try files.copyItem(at: Repository.root.appendingPathComponent("Stages"), to: scratch.url.appendingPathComponent("Stages"))
        try files.copyItem(
            at: Repository.root.appendingPathComponent("examples/node-nginx"), to: scratch.url.appendingPathComponent("ex"))
        try git(scratch, ["init", "-q"])
        try commit(scratch, "base")
        return scratch
    }

    @discardableResult
    static func git(_ scratch: Scratch, _ arguments: [String]) throws -> ProcessRun {
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/git"),
            ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.path], in: scratch.url, limit: .seconds(60))
        #expect(run.status == 0, "\(run)")
        return run
    }

    static func commit(_ scratch: Scratch, _ message: String) throws {
        try git(scratch, ["add", "-A"])
        try git(scratch, ["commit", "-q", "-m", message])
    }

    /// Replaces text in a file of the scratch folder, which must hold it.
    static func edit(_ scratch: Scratch, _ file: String, _ old: String, _ new: String) throws {
        let text = try #require(scratch.text(file))
        #expect(text.contains(old), "\(file) lacks \(old)")
        try scratch.write(text.replacingOccurrences(of: old, with: new), to: file)
    }

    static func diff(_ scratch: Scratch, _ arguments: [String] = []) -> CommandResult {
        scratch.run(["diff", "--base", "HEAD"] + arguments, in: "ex")
    }

    static func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func anUnchangedTreeRebuildsNothing() throws {
        let scratch = try Self.repository()
        let result = Self.diff(scratch)
        #expect(result.status == .success, "\(result)")
        #expect(result.stdout.contains("build stage app: unchanged\n"), "\(result.stdout)")
        #expect(result.stdout.contains("build stage proxy: unchanged\n"))
        #expect(result.stdout.hasSuffix("0 of 2 build stage(s) rebuild: 0 of 9 layers\n"), "\(result.stdout)")
        #expect(result.stderr.isEmpty)
    }

    @Test func aParameterIsNamedWithItsTemplateAndStagefileLine() throws {
        let scratch = try Self.repository()
        try Self.edit(scratch, "ex/Stagefile", "APP_PORT=3000", "APP_PORT=3001")
        let result = Self.diff(scratch)
        #expect(result.status == .success, "\(result)")
        #expect(result.stdout.contains("build stage app: rebuilds 3 of 6 layers\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "  first miss: Stages/node-service.Dockerfile:14 (template node-service): RUN install -d -o node"),
            "\(result.stdout)")
        #expect(result.stdout.contains("    because parameter APP_PORT of node-service: 3000 -> 3001 (ex/Stagefile:5:34)\n"))
        #expect(result.stdout.contains("  configuration: Stages/node-service.Dockerfile:26: EXPOSE ${APP_PORT}\n"))
        #expect(result.stdout.contains("build stage proxy: unchanged\n"))
        #expect(result.stdout.contains("advice: Stages/node-service.Dockerfile:10: ARG APP_PORT"))

        let report = try Self.json(Self.diff(scratch, ["--format", "json"]))
        #expect(report["base"] as? String == "HEAD")
        #expect(report["rules"] as? String == "buildkit")
        let stages = try #require(report["stages"] as? [[String: Any]])
        #expect(stages.map { $0["status"] as? String } == ["rebuilds", "unchanged"])
        let first = try #require(stages[0]["firstMiss"] as? [String: Any])
        #expect(first["file"] as? String == "Stages/node-service.Dockerfile")
        #expect(first["line"] as? Int == 14)
        #expect(first["template"] as? String == "node-service")
        let cause = try #require((first["causes"] as? [[String: Any]])?.first)
        #expect(cause["kind"] as? String == "parameter")
        #expect(cause["name"] as? String == "APP_PORT")
        #expect(cause["old"] as? String == "3000" && cause["new"] as? String == "3001")
        #expect(cause["file"] as? String == "ex/Stagefile" && cause["line"] as? Int == 5)
    }

    @Test func aSnapshotATemplateLineAndAContextFileAreEachNamed() throws {
        let scratch = try Self.repository()
        try Self.edit(
            scratch, "ex/Stagefile", "FROM stage:debian AS app\n", "FROM stage:debian AS app DEBIAN_SNAPSHOT=20261101T000000Z\n")
        try Self.commit(scratch, "snapshot")
        try Self.edit(scratch, "ex/Stagefile", "20261101T000000Z", "20261201T000000Z")
        let snapshot = Self.diff(scratch)
        #expect(
            snapshot.stdout.contains("because snapshot DEBIAN_SNAPSHOT moved 20261101T000000Z -> 20261201T000000Z\n"),
            "\(snapshot.stdout)")
        #expect(snapshot.stdout.contains("first miss: Stages/debian.Dockerfile:22 (template debian): RUN set -eux;"))

        try Self.commit(scratch, "moved")
        try Self.edit(scratch, "Stages/node-runtime.Dockerfile", "groupadd --system node", "groupadd --system --gid 999 node")
        let template = Self.diff(scratch)
        #expect(template.stdout.contains("first miss: Stages/node-runtime.Dockerfile:22 (template node-runtime): RUN groupadd"))
        #expect(
            template.stdout.contains("because instruction changed: … --system node … -> … --system --gid 999 node …\n"),
            "\(template.stdout)")

        try Self.commit(scratch, "template")
        try scratch.write("// changed\n", to: "ex/app/server.js")
        let context = Self.diff(scratch, ["--format", "markdown"])
        #expect(context.stdout.hasPrefix("### What this change rebuilds\n"), "\(context.stdout)")
        #expect(
            context.stdout.contains(
                "| app | 2 of 6 | `Stages/node-service.Dockerfile:18` `COPY --chown=node:node --chmod=0755 ${APP_SOURCE} ${APP_DIR}/` | "
                    + "context file of COPY source app/ changed: app/server.js (changed) |"),
            "\(context.stdout)")
        #expect(
            context.stdout.contains(
                "| `Stages/node-service.Dockerfile:18` | `COPY --chown=node:node --chmod=0755 ${APP_SOURCE} ${APP_DIR}/` | miss |"
            ))
    }

    @Test func theExecutableBitIsContentButATimeIsNot() throws {
        let scratch = try Self.repository()
        try scratch.backdate("ex/app/server.js")
        #expect(Self.diff(scratch).stdout.contains("build stage app: unchanged\n"))
        #expect(chmod(scratch.url.appendingPathComponent("ex/app/server.js").path, 0o755) == 0)
        let result = Self.diff(scratch)
        #expect(
            result.stdout.contains("because context file of COPY source app/ changed: app/server.js (changed)\n"),
            "\(result.stdout)")
        // Committed so, the revision's tree says the file is executable, as the working tree does.
        try Self.commit(scratch, "executable")
        #expect(Self.diff(scratch).stdout.contains("build stage app: unchanged\n"))
    }

    @Test func theWorkingTreeIsComparedAsAFreshCheckoutWouldHoldIt() throws {
        let scratch = try Self.repository()
        // The whole context copied: .git changes with every commit and a .gitignore'd build
        // output is on no CI machine, so neither is a change; a new file git sees is.
        try Self.edit(scratch, "ex/Stagefile", "LABEL org.opencontainers.image.title=\"myapp\"", "COPY . /context/")
        try scratch.write("dist/\n", to: ".gitignore")
        try Self.commit(scratch, "copies everything")
        try scratch.write("built\n", to: "ex/dist/bundle.js")
        let ignored = Self.diff(scratch)
        #expect(ignored.stdout.contains("build stage app: unchanged\n"), "\(ignored.stdout)")
        try scratch.write("new\n", to: "ex/notes.txt")
        let result = Self.diff(scratch)
        #expect(
            result.stdout.contains("because context file of COPY source . changed: notes.txt (added)\n"), "\(result.stdout)")
    }

    @Test func aStagefileTheBaseLacksMakesEveryStageNewAndALinkedOneIsReadThrough() throws {
        let scratch = try Self.repository()
        #expect(symlink("Stagefile", scratch.url.appendingPathComponent("ex/linked.Stagefile").path) == 0)
        try Self.commit(scratch, "a link")
        let linked = scratch.run(["diff", "linked.Stagefile", "--base", "HEAD"], in: "ex")
        #expect(linked.status == .success, "\(linked)")
        #expect(linked.stdout.contains("build stage app: unchanged\n"))
        try scratch.write(try #require(scratch.text("ex/Stagefile")), to: "ex/other.Stagefile")
        let added = scratch.run(["diff", "other.Stagefile", "--base", "HEAD"], in: "ex")
        #expect(added.status == .success, "\(added)")
        #expect(added.stderr == "warning: HEAD:ex/other.Stagefile does not exist, so every build stage is new\n")
        #expect(added.stdout.contains("build stage app: rebuilds 6 of 6 layers\n"), "\(added.stdout)")
        #expect(added.stdout.contains("    because the build stage is new\n"))
    }

    @Test func markdownKeepsTheFilesTextAsText() throws {
        let scratch = try Self.repository()
        try Self.edit(
            scratch, "ex/Stagefile", "LABEL org.opencontainers.image.title=\"myapp\"",
            "RUN echo \"`date` <b>*x*</b> @octocat | done\"")
        let result = Self.diff(scratch, ["--format", "markdown"])
        #expect(result.status == .success, "\(result)")
        // The instruction in a code span fenced past its own backtick, the `|` escaped for the table.
        #expect(result.stdout.contains("`` RUN echo \"`date` <b>*x*</b> @octocat \\| done\" ``"), "\(result.stdout)")
        #expect(!result.stdout.contains("@octocat |"))
    }

    @Test func buildahsRulesAndTheGate() throws {
        let scratch = try Self.repository()
        try Self.edit(
            scratch, "ex/Stagefile", "LABEL org.opencontainers.image.title=\"myapp\"",
            "LABEL org.opencontainers.image.title=\"app\"")
        // BuildKit: a label is configuration; buildah: a step of the chain, so nothing after it is cached.
        let buildKit = Self.diff(scratch, ["--fail-on-rebuild", "app"])
        #expect(buildKit.status == .success, "\(buildKit)")
        #expect(buildKit.stdout.contains("build stage app: no layer rebuilds; the image configuration changes\n"))
        let buildah = Self.diff(scratch, ["--builder", "podman", "--fail-on-rebuild", "APP", "--fail-on-rebuild", "proxy"])
        #expect(buildah.status == .success, "\(buildah)")
        #expect(buildah.stdout.contains("under buildah's cache rules"))
        #expect(buildah.stdout.contains("first miss: ex/Stagefile:6: LABEL"), "\(buildah.stdout)")

        try Self.edit(scratch, "ex/Stagefile", "APP_PORT=3000", "APP_PORT=3001")
        let gated = Self.diff(scratch, ["--fail-on-rebuild", "app"])
        #expect(gated.status == .checkFailed, "\(gated)")
        #expect(gated.stderr == "error: build stage app rebuilds\n")
        #expect(Self.diff(scratch, ["--fail-on-rebuild", "proxy"]).status == .success)
    }

    @Test func anotherCheckoutCanBeTheBaseSide() throws {
        let scratch = try Self.repository()
        let other = try Scratch()
        try FileManager.default.copyItem(
            at: scratch.url.appendingPathComponent("Stages"), to: other.url.appendingPathComponent("Stages"))
        try FileManager.default.copyItem(at: scratch.url.appendingPathComponent("ex"), to: other.url.appendingPathComponent("ex"))
        try Self.edit(scratch, "ex/Stagefile", "UPSTREAM_PORT=3000", "UPSTREAM_PORT=3002")
        let result = scratch.run(["diff", "--base-dir", other.path, "--format", "json"], in: "ex")
        #expect(result.status == .success, "\(result)")
        let stages = try #require(try Self.json(result)["stages"] as? [[String: Any]])
        #expect(stages.map { $0["status"] as? String } == ["unchanged", "rebuilds"])
    }

    @Test func aBrokenBaseSideIsAnErrorAtItsRevisionAndLine() throws {
        let scratch = try Self.repository()
        try scratch.write("FROM stage:nonesuch AS app\n", to: "ex/Stagefile")
        try Self.commit(scratch, "broken")
        try scratch.write("FROM stage:debian AS app\n", to: "ex/Stagefile")
        let result = Self.diff(scratch)
        #expect(result.status == .dataError, "\(result)")
        #expect(result.stderr.hasPrefix("HEAD:ex/Stagefile:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("nonesuch"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["diff"], "name the base side: --base REV (a git revision) or --base-dir DIR"),
        (["diff", "--base", "HEAD", "--base-dir", "."], "--base and --base-dir both name the base side; give one"),
        (["diff", "--base", "HEAD", "--format", "yaml"], "--format must be text, markdown or json, not 'yaml'"),
        (["diff", "--base", "HEAD", "--builder", "kaniko"], "--builder is buildkit, buildah or podman, not 'kaniko'"),
        (
            ["diff", "--base", "HEAD", "--fail-on-rebuild", "web"],
            "--fail-on-rebuild web: no build stage has that name (app, proxy)"
        ),
        (["diff", "--base", "HEAD", "--context", "nowhere"], "--context nowhere is not a folder"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let scratch = try Self.repository()
        let result = scratch.run(arguments, in: "ex")
        #expect(result.status == .usage, "\(result)")
        #expect(result.stderr.hasPrefix("error: \(message)\n"), "\(result.stderr)")
    }

    @Test func outsideGitOrAtAnUnknownRevisionItSaysSo() throws {
        let scratch = try Self.repository()
        let missing = scratch.run(["diff", "--base", "no-such-branch"], in: "ex")
        #expect(missing.status == .dataError, "\(missing)")
        #expect(missing.stderr.hasPrefix("error: git knows no revision 'no-such-branch' in "), "\(missing.stderr)")

        let plain = try Scratch()
        try plain.write("FROM debian:bookworm-slim\n", to: "Stagefile")
        let outside = plain.run(["diff", "--base", "HEAD"])
        #expect(outside.status == .usage, "\(outside)")
        #expect(outside.stderr.contains("is not in a git repository, so --base has no revision to read; use --base-dir DIR"))
    }
}
