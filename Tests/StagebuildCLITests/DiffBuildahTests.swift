import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild diff --builder buildah` held against buildah itself: a fixture catalog is built
/// with `buildah bud --layers` at a base commit, then once per kind of change (each rule of
/// docs/cache-rules.md), and every step buildah took from its cache or ran again is compared
/// with the prediction, step by step. Needs `Tests/e2e/buildah-cache/start STATE` and
/// `STAGEBUILD_BUILDAH_STATE=STATE` (scripts/test does both).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["STAGEBUILD_BUILDAH_STATE"] != nil,
        "needs STAGEBUILD_BUILDAH_STATE from Tests/e2e/buildah-cache/start"))
struct DiffBuildahTests {
    /// The fixture: a base template over the test's busybox images, a layer template with one
    /// step of each kind, and a Stagefile with a stage starting from another and the last
    /// copying from both (buildah builds the stages the last one needs).
    static let files: [String: String] = [
        "Stages/base.Dockerfile": """
        # summary: busybox, one of the images Tests/e2e/buildah-cache/start makes
        # param BASE_TAG: which of them
        ARG BASE_TAG=1
        FROM localhost/stagebuild-diff-base:${BASE_TAG}

        """,
        "Stages/tool.Dockerfile": """
        # summary: a tool with a step of each kind
        # param PORT: a port
        # param SOURCE: a folder of the build context
        # param DIR: the working folder
        ARG PORT=3000
        ARG SOURCE=app/
        ARG DIR=/srv
        RUN echo install > /installed
        COPY ${SOURCE} /app/
        WORKDIR ${DIR}
        RUN echo "$PORT" > port
        LABEL tier=web
        ENV GREETING=hello
        RUN echo done > /done

        """,
        "Stagefile": """
        FROM stage:base AS build
        USE tool
        FROM build AS test
        RUN echo test > /test
        FROM stage:base AS runtime
        RUN echo runtime > /runtime
        RUN --mount=type=bind,source=mounted.txt,target=/mnt/mounted.txt cat /mnt/mounted.txt > /mounted
        COPY --from=build /installed /installed
        COPY --from=test /test /test
        RUN echo after > /after

        """,
        "app/a.txt": "a\n",
        "mounted.txt": "m\n",
        "app/b.txt": "b\n",
        ".dockerignore": "app/*.log\n",
        ".gitignore": "Dockerfile\n",
    ]

    /// One kind of change: its name and the edit.
    struct Change: CustomStringConvertible, Sendable {
        var description: String
        var apply: @Sendable (Scratch) throws -> Void
    }

    static func replace(_ file: String, _ old: String, _ new: String) -> @Sendable (Scratch) throws -> Void {
        { scratch in
            let text = try #require(scratch.text(file))
            #expect(text.contains(old), "\(file) lacks \(old)")
            try scratch.write(text.replacingOccurrences(of: old, with: new), to: file)
        }
    }

    static let changes: [Change] = [
        Change(description: "a parameter the Stagefile gives", apply: replace("Stagefile", "USE tool", "USE tool PORT=3001")),
        Change(description: "a template line", apply: replace("Stages/tool.Dockerfile", "echo done", "echo finished")),
        Change(description: "a label", apply: replace("Stages/tool.Dockerfile", "tier=web", "tier=api")),
        Change(description: "an ENV value", apply: replace("Stages/tool.Dockerfile", "GREETING=hello", "GREETING=hi")),
        Change(description: "a context file a COPY reads", apply: { try $0.write("changed\n", to: "app/a.txt") }),
        Change(description: "a new context file", apply: { try $0.write("new\n", to: "app/c.txt") }),
        Change(description: "a file a RUN mounts", apply: { try $0.write("changed\n", to: "mounted.txt") }),
        Change(description: "a file .dockerignore keeps out", apply: { try $0.write("log\n", to: "app/debug.log") }),
        Change(description: "only a modification time", apply: { try $0.backdate("app/a.txt") }),
        Change(
            description: "the base image",
            apply: replace("Stagefile", "FROM stage:base AS runtime", "FROM stage:base AS runtime BASE_TAG=2")),
        Change(description: "a WORKDIR's variable", apply: replace("Stagefile", "USE tool", "USE tool DIR=/opt")),
        Change(
            description: "a step added",
            apply: replace("Stagefile", "RUN echo runtime", "RUN echo first > /first\nRUN echo runtime")),
        Change(
            description: "a stage copied from rebuilds, its file the same",
            apply: replace("Stages/tool.Dockerfile", "echo done > /done", "echo done > /done2")),
    ]

    /// buildah's storage options from the start script's env file.
    static func storage() throws -> [String] {
        let state = try #require(ProcessInfo.processInfo.environment["STAGEBUILD_BUILDAH_STATE"])
        let env = try String(contentsOfFile: state + "/env", encoding: .utf8)
        var values: [String: String] = [:]
        for line in env.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return [
            "--root", try #require(values["BUILDAH_ROOT"]), "--runroot", try #require(values["BUILDAH_RUNROOT"]),
            "--storage-driver", "vfs",
        ]
    }

    /// Composes the working tree and builds it; returns, per build stage, whether buildah took
    /// each instruction after FROM from its cache.
    static func build(_ scratch: Scratch) throws -> [[Bool]] {
        let compose = scratch.run(["compose", "-o", "Dockerfile"])
        #expect(compose.status == .success, "\(compose)")
        // A runtime's transient failure to start a step (runc's "sealing memfd copy: Device or
        // resource busy", opencontainers/runc#2059) is tried once more; the layers the failed
        // attempt made count as made, not as taken from the cache.
        var made: Set<String> = []
        for attempt in 1...2 {
            let run = try bud(scratch)
            let (stages, waiting, fresh) = Self.steps(in: run.stdout, made: made)
            if run.status != 0, attempt == 1, run.stdout.contains("sealing memfd copy") {
                made.formUnion(fresh)
                continue
            }
            #expect(run.status == 0, "\(run)")
            #expect(waiting.isEmpty, "steps without a result: \(waiting)")
            return stages.keys.sorted().map { stage in stages[stage]!.keys.sorted().map { stages[stage]![$0]! } }
        }
        return []
    }

    /// `buildah bud` of the composed Dockerfile, both outputs in one stream (through sh): the
    /// step lines and the cache lines are read in the order buildah wrote them.
    static func bud(_ scratch: Scratch) throws -> ProcessRun {
        try ProcessRun.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec /usr/bin/buildah \"$@\" 2>&1", "buildah",
            ] + (try storage()) + ["bud", "--isolation", "chroot", "--layers", "--pull-never", "-f", "Dockerfile", "."],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": scratch.path], in: scratch.url,
            limit: .seconds(120))
    }

    /// Per stage and step, whether buildah took the step from its cache; the steps still waiting
    /// for a result; and the layers made (short IDs).
    ///
    /// `[N/M] STEP K/L: …` (`STEP K/L: …` for one stage), then `--> Using cache ID` and
    /// `--> SHORT-ID`, or `--> SHORT-ID` alone for a step that ran. A stage waiting for another
    /// (COPY --from) lets that one's steps in between, so a result belongs to the latest step
    /// still waiting for one. A cache hit on a layer in `made` counts as a step that ran.
    static func steps(
        in output: String, made: Set<String>
    ) -> (
        stages: [Int: [Int: Bool]], waiting: [(stage: Int, step: Int)], fresh: Set<String>
    ) {
        var stages: [Int: [Int: Bool]] = [:]
        var waiting: [(stage: Int, step: Int)] = []
        var announced: Set<String> = []
        var fresh: Set<String> = []
        for line in output.split(separator: "\n").map(String.init) {
            if let marker = line.range(of: "STEP "), line.hasPrefix("STEP ") || line.hasPrefix("[") {
                let stage = line.hasPrefix("[") ? Int(line.dropFirst().prefix { $0 != "/" }) ?? 0 : 1
                let step = Int(line[marker.upperBound...].prefix { $0 != "/" }) ?? 0
                if step == 1 { stages[stage, default: [:]] = [:] } else { waiting.append((stage, step)) }
            } else if line.hasPrefix("--> Using cache "), let last = waiting.popLast() {
                let id = String(line.dropFirst("--> Using cache ".count).prefix(11))
                stages[last.stage, default: [:]][last.step] = !made.contains(id)
                announced.insert(id)
            } else if line.hasPrefix("--> "), !announced.contains(String(line.dropFirst(4))), let last = waiting.popLast() {
                stages[last.stage, default: [:]][last.step] = false
                fresh.insert(String(line.dropFirst(4).prefix(11)))
            }
        }
        return (stages, waiting, fresh)
    }

    /// After a transient failure, a cache hit on a layer the failed attempt made is a step that ran.
    @Test func aLayerTheFailedAttemptMadeCountsAsMade() {
        let output = """
            [1/1] STEP 1/3: FROM base
            [1/1] STEP 2/3: RUN a
            --> Using cache 0123456789abcdef
            --> 0123456789a
            [1/1] STEP 3/3: RUN b
            --> Using cache fedcba9876543210
            --> fedcba98765
            """
        let (stages, waiting, _) = Self.steps(in: output, made: ["fedcba98765"])
        #expect(waiting.isEmpty)
        #expect(stages[1] == [2: true, 3: false])
    }

    @Test func everyStepIsPredictedAsBuildahTakesIt() throws {
        let scratch = try Scratch()
        for (path, text) in Self.files { try scratch.write(text, to: path) }
        try DiffCommandTests.git(scratch, ["init", "-q"])
        try DiffCommandTests.commit(scratch, "base")
        // A cache left by an earlier run would hold the changed steps too: only the base
        // images stay (every image a build makes is untagged).
        let prune = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/buildah"), try Self.storage() + ["rmi", "--prune"],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"], limit: .seconds(60))
        #expect(prune.status == 0, "\(prune)")
        _ = try Self.build(scratch)
        // Back at the base commit the cache holds every step, and keeps holding them.
        #expect(try Self.build(scratch).allSatisfy { $0.allSatisfy { $0 } })
        for change in Self.changes {
            try DiffCommandTests.git(scratch, ["checkout", "-q", "--", "."])
            try DiffCommandTests.git(scratch, ["clean", "-q", "-f", "-d"])
            try change.apply(scratch)
            let diff = scratch.run(["diff", "--base", "HEAD", "--builder", "buildah", "--format", "json"])
            #expect(diff.status == .success, "\(change): \(diff)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
            let predicted = try #require(report["stages"] as? [[String: Any]]).map {
                ($0["steps"] as? [[String: Any]] ?? []).map { $0["cache"] as? String ?? "?" }
            }
            let observed = try Self.build(scratch)
            #expect(predicted.map(\.count) == observed.map(\.count), "\(change): \(predicted) against \(observed)")
            for (stage, (predictions, steps)) in zip(predicted, observed).enumerated() {
                for (index, (prediction, cached)) in zip(predictions, steps).enumerated() {
                    let agrees = prediction == "may-miss" || (prediction == "hit") == cached
                    #expect(
                        agrees,
                        "\(change): build stage \(stage + 1), STEP \(index + 2): predicted \(prediction), buildah \(cached ? "cached it" : "ran it")"
                    )
                }
            }
        }
    }
}
