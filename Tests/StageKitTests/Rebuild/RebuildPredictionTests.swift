import StageKit
import Testing

/// `stagebuild diff`'s prediction on compositions held in memory: each documented cache rule
/// (docs/cache-rules.md) under BuildKit's and buildah's rules, the first miss and its cause.
/// The same rules are checked against a real buildah in `DiffBuildahTests`.
@Suite struct RebuildPredictionTests {
    /// One side of a change: templates, a Stagefile and a build context.
    struct Side {
        var templates: [String: String] = [
            "os": "# summary: os\nFROM alpine:3.20\n",
            "app": """
            # summary: app
            # param PORT: the port
            # param SOURCE: the app's folder
            ARG PORT=3000
            ARG SOURCE=app/
            RUN apk add --no-cache nodejs
            COPY ${SOURCE} /srv/
            ENV PORT=${PORT}
            LABEL tier=web
            RUN echo built

            """,
        ]
        var stagefile = "FROM stage:os AS app\nUSE app\n"
        var context: [String: String] = ["app/server.js": "listen(3000)\n", "app/notes.txt": "notes\n"]

        func side() throws -> RebuildPrediction.Side {
            let project = MemoryProject(templates: templates)
            let composition = try project.composer.composition(of: try Stagefile(text: stagefile, displayPath: "Stagefile"))
            var files: [String: String] = [:]
            for (path, text) in context { files["/context/" + path] = text }
            return try RebuildPrediction.Side(
                composition: composition, context: BuildContextFiles(root: "/context", fileSystem: MemoryFileSystem(files: files))
            )
        }
    }

    static func predict(_ base: Side, _ new: Side, _ rules: CacheRules) throws -> RebuildPrediction {
        RebuildPrediction(base: try base.side(), new: try new.side(), rules: rules)
    }

    /// The stage's steps that miss, as `KEYWORD` words in order.
    static func missing(_ outcome: RebuildPrediction.StageOutcome) -> [String] {
        outcome.steps.filter { $0.cache != .hit }.map(\.step.keyword)
    }

    @Test(arguments: CacheRules.allCases)
    func theSameInputsRebuildNothing(rules: CacheRules) throws {
        let prediction = try Self.predict(Side(), Side(), rules)
        #expect(prediction.stages.map(\.status) == [.unchanged])
        #expect(prediction.stages[0].layers == 3)
        #expect(RebuildAdvice.advice(for: prediction).isEmpty)
    }

    @Test(arguments: CacheRules.allCases)
    func aParameterReachesEveryRunAfterItsArgAsAnEnvironmentVariable(rules: CacheRules) throws {
        var new = Side()
        new.stagefile = "FROM stage:os AS app\nUSE app PORT=3001\n"
        let outcome = try Self.predict(Side(), new, rules).stages[0]
        #expect(outcome.status == .rebuilds)
        // Both builders: the first RUN after ARG PORT sees it (BuildKit in its environment,
        // buildah in the build arguments it records); the ARG itself is no miss for buildah.
        let first = try #require(outcome.firstMiss)
        #expect(first.step.keyword == "RUN")
        #expect(first.step.text.contains("apk add"))
        #expect(first.step.origin?.file == "Stages/app.Dockerfile")
        #expect(first.step.origin?.line == 6)
        guard case .variable(let change)? = first.causes.first else {
            Issue.record("cause: \(first.causes)")
            return
        }
        #expect(change.name == "PORT" && change.old == "3000" && change.new == "3001")
        #expect(change.binding?.template == "app")
        #expect(first.causes[0].description == "parameter PORT of app: 3000 -> 3001 (Stagefile:2:9)")
        #expect(outcome.rebuiltLayers == 3)
        // PORT is first used by ENV: declaring it there keeps the install.
        let advice = RebuildAdvice.advice(for: RebuildPrediction(base: try Side().side(), new: try new.side(), rules: rules))
        #expect(advice.count == 1)
        #expect(advice.first?.message.contains("declaring the ARG just before its first use (Stages/app.Dockerfile:8)") == true)
    }

    @Test func aLabelIsConfigurationForBuildKitAndAStepOfTheChainForBuildah() throws {
        var new = Side()
        new.templates["app"] = Side().templates["app"]!.replacingOccurrences(of: "tier=web", with: "tier=api")
        let buildKit = try Self.predict(Side(), new, .buildKit).stages[0]
        #expect(buildKit.status == .configurationOnly)
        #expect(buildKit.configurationChanges.map(\.step.keyword) == ["LABEL"])
        #expect(buildKit.rebuiltLayers == 0)
        let buildah = try Self.predict(Side(), new, .buildah).stages[0]
        #expect(buildah.status == .rebuilds)
        #expect(Self.missing(buildah) == ["LABEL", "RUN"])
        #expect(buildah.firstMiss?.causes == [.instructionChanged(old: "LABEL tier=web", new: "LABEL tier=api")])
        #expect(buildah.rebuiltLayers == 1)
    }

    @Test(arguments: CacheRules.allCases)
    func aChangedContextFileMissesAtTheCopyThatReadsIt(rules: CacheRules) throws {
        var new = Side()
        new.context["app/server.js"] = "listen(3001)\n"
        new.context["app/new.js"] = "x\n"
        let outcome = try Self.predict(Side(), new, rules).stages[0]
        #expect(Self.missing(outcome).first == "COPY")
        #expect(
            outcome.firstMiss?.causes == [
                .contextFiles(
                    source: "app/",
                    changes: [
                        ContextFileChange(path: "app/new.js", kind: .added),
                        ContextFileChange(path: "app/server.js", kind: .changed),
                    ])
            ])
        #expect(outcome.rebuiltLayers == 2)
    }

    @Test(arguments: CacheRules.allCases)
    func aFileDockerignoreKeepsOutOrNoCopyReadsRebuildsNothing(rules: CacheRules) throws {
        var base = Side()
        base.context[".dockerignore"] = "**/*.txt\n"
        var new = base
        new.context["app/notes.txt"] = "other notes\n"
        new.context["README"] = "not copied\n"
        #expect(try Self.predict(base, new, rules).stages[0].status == .unchanged)
        // Without the .dockerignore the same edit reaches the COPY.
        var unignored = Side()
        unignored.context["app/notes.txt"] = "other notes\n"
        #expect(try Self.predict(Side(), unignored, rules).stages[0].status == .rebuilds)
    }

    @Test(arguments: CacheRules.allCases)
    func aChangedTemplateLineIsNamedWithBothTexts(rules: CacheRules) throws {
        var new = Side()
        new.templates["app"] = Side().templates["app"]!.replacingOccurrences(of: "echo built", with: "echo built again")
        let outcome = try Self.predict(Side(), new, rules).stages[0]
        #expect(outcome.firstMiss?.step.origin?.line == 10)
        #expect(outcome.firstMiss?.causes == [.instructionChanged(old: "RUN echo built", new: "RUN echo built again")])
        #expect(outcome.rebuiltLayers == 1)
    }

    @Test(arguments: CacheRules.allCases)
    func anAddedOrRemovedStepIsToldApartFromAChangedOne(rules: CacheRules) throws {
        var added = Side()
        added.stagefile = "FROM stage:os AS app\nRUN echo first\nUSE app\n"
        let outcome = try Self.predict(Side(), added, rules).stages[0]
        #expect(outcome.firstMiss?.step.text == "RUN echo first")
        #expect(outcome.firstMiss?.causes == [.instructionAdded])
        #expect(outcome.firstMiss?.step.origin == Composition.LineOrigin(file: "Stagefile", line: 2))
        let removed = try Self.predict(added, Side(), rules).stages[0]
        guard case .instructionRemoved(let old, _)? = removed.firstMiss?.causes.first else {
            Issue.record("\(String(describing: removed.firstMiss?.causes))")
            return
        }
        #expect(old == "RUN echo first")
    }

    @Test(arguments: CacheRules.allCases)
    func aMovedDigestMissesFromTheFirstStep(rules: CacheRules) throws {
        let digestA = "sha256:" + String(repeating: "a", count: 64)
        let digestB = "sha256:" + String(repeating: "b", count: 64)
        var base = Side()
        base.templates["os"] = "# summary: os\nFROM alpine:3.20@\(digestA)\n"
        var new = Side()
        new.templates["os"] = "# summary: os\nFROM alpine:3.20@\(digestB)\n"
        let outcome = try Self.predict(base, new, rules).stages[0]
        #expect(outcome.startCauses == [.baseImage(old: "alpine:3.20@\(digestA)", new: "alpine:3.20@\(digestB)")])
        #expect(
            outcome.startCauses[0].description
                == "image alpine:3.20 digest moved sha256:aaaaaaaaaaaa -> sha256:bbbbbbbbbbbb (stagebuild.lock)")
        #expect(outcome.steps.filter(\.addsLayer).allSatisfy { $0.cache == .miss })
    }

    @Test func aMountedContextFileIsAMissForBuildKitAndNoneForBuildah() throws {
        var base = Side()
        base.stagefile = "FROM stage:os AS app\nRUN --mount=type=bind,source=app/server.js,target=/s cat /s > /out\n"
        var new = base
        new.context["app/server.js"] = "changed\n"
        let buildKit = try Self.predict(base, new, .buildKit).stages[0]
        #expect(Self.missing(buildKit) == ["RUN"])
        #expect(
            buildKit.firstMiss?.causes == [
                .contextFiles(source: "app/server.js", changes: [ContextFileChange(path: "app/server.js", kind: .changed)])
            ])
        // buildah 1.28 records the command only: it takes the step from its cache.
        #expect(try Self.predict(base, new, .buildah).stages[0].status == .unchanged)
    }

    @Test func aWorkdirFromAChangedArgumentIsALayerForBuildKitAndCachedTextForBuildah() throws {
        var base = Side()
        base.stagefile = "FROM stage:os AS app\nARG DIR=/srv\nWORKDIR ${DIR}\nRUN echo here > file\n"
        var new = base
        new.stagefile = base.stagefile.replacingOccurrences(of: "DIR=/srv", with: "DIR=/opt")
        let buildKit = try Self.predict(base, new, .buildKit).stages[0]
        #expect(Self.missing(buildKit) == ["WORKDIR", "RUN"])
        // buildah 1.28 records WORKDIR's text as written, so it takes it from its cache (with
        // the old folder in its configuration); the RUN's recorded arguments miss.
        let buildah = try Self.predict(base, new, .buildah).stages[0]
        #expect(Self.missing(buildah) == ["RUN"])
    }

    @Test(arguments: CacheRules.allCases)
    func aStageCopyingFromARebuiltStageMayRebuildAndOneStartingFromItRebuilds(rules: CacheRules) throws {
        var base = Side()
        base.stagefile = """
            FROM stage:os AS build
            RUN echo compile > /out
            FROM stage:os AS runtime
            RUN echo base
            COPY --from=build /out /out
            FROM build AS test
            RUN echo test

            """
        var new = base
        new.stagefile = base.stagefile.replacingOccurrences(of: "echo compile", with: "echo compile -O2")
        let stages = try Self.predict(base, new, rules).stages
        #expect(stages.map(\.name) == ["build", "runtime", "test"])
        #expect(stages.map(\.status) == [.rebuilds, .mayRebuild, .rebuilds])
        #expect(Self.missing(stages[1]) == ["COPY"])
        #expect(stages[1].firstMiss?.causes == [.copiedStage("build")])
        #expect(stages[2].startCauses == [.baseStage("build")])
    }

    @Test func aChangedUserReachesTheStepsThatRunAsItUnderBuildKit() throws {
        var base = Side()
        base.stagefile = "FROM stage:os AS app\nUSER nobody\nWORKDIR /w\nRUN id\n"
        var new = base
        new.stagefile = base.stagefile.replacingOccurrences(of: "USER nobody", with: "USER root")
        let outcome = try Self.predict(base, new, .buildKit).stages[0]
        #expect(Self.missing(outcome) == ["WORKDIR", "RUN"])
        #expect(outcome.firstMiss?.causes == [.runsWith(setting: "USER", old: "nobody", new: "root")])
        #expect(outcome.configurationChanges.map(\.step.keyword) == ["USER"])
    }

    @Test func configurationStepsAddedOrRemovedAreToldSoAndShiftNothing() throws {
        var new = Side()
        new.templates["app"] = Side().templates["app"]!.replacingOccurrences(
            of: "ENV PORT=${PORT}\n", with: "LABEL added=yes\nENV PORT=${PORT}\n")
        let added = try Self.predict(Side(), new, .buildKit).stages[0]
        #expect(added.status == .configurationOnly)
        #expect(added.configurationChanges.map(\.step.text) == ["LABEL added=yes"])
        #expect(added.configurationChanges.first?.causes == [.instructionAdded])
        let removed = try Self.predict(new, Side(), .buildKit).stages[0]
        #expect(removed.status == .configurationOnly)
        #expect(removed.configurationChanges.map(\.step.text) == ["LABEL added=yes"])
        guard case .instructionRemoved? = removed.configurationChanges.first?.causes.first else {
            Issue.record("\(removed.configurationChanges)")
            return
        }
    }

    @Test(arguments: CacheRules.allCases)
    func aRenamedStageIsTheSameStage(rules: CacheRules) throws {
        var new = Side()
        new.stagefile = "FROM stage:os AS service\nUSE app\n"
        let prediction = try Self.predict(Side(), new, rules)
        #expect(prediction.stages.map(\.name) == ["service"])
        #expect(prediction.stages.map(\.status) == [.unchanged])
    }

    @Test func aStageNamedByItsNumberIsFollowed() throws {
        var base = Side()
        base.stagefile = "FROM stage:os AS build\nRUN echo one > /out\nFROM stage:os AS runtime\nCOPY --from=0 /out /out\n"
        var new = base
        new.stagefile = base.stagefile.replacingOccurrences(of: "echo one", with: "echo two")
        let stages = try Self.predict(base, new, .buildKit).stages
        #expect(stages.map(\.status) == [.rebuilds, .mayRebuild])
        #expect(stages[1].firstMiss?.causes == [.copiedStage("build")])
    }

    @Test func aNewOrRemovedBuildStageIsSaidSo() throws {
        var new = Side()
        new.stagefile += "FROM stage:os AS extra\nRUN echo extra\n"
        let added = try Self.predict(Side(), new, .buildKit)
        #expect(added.stages.map(\.status) == [.unchanged, .rebuilds])
        #expect(added.stages[1].startCauses == [.stageAdded])
        let removed = try Self.predict(new, Side(), .buildKit)
        #expect(removed.stages.map(\.status) == [.unchanged, .removed])
    }

    @Test func aWholeFolderCopiedBeforeARunGetsAdvice() throws {
        var base = Side()
        base.stagefile = "FROM stage:os AS app\nCOPY . /src\nRUN make -C /src\n"
        var new = base
        new.context["app/server.js"] = "changed\n"
        let prediction = try Self.predict(base, new, .buildKit)
        let advice = RebuildAdvice.advice(for: prediction)
        #expect(advice.count == 1)
        #expect(advice.first?.origin == Composition.LineOrigin(file: "Stagefile", line: 2))
        #expect(advice.first?.message.contains("copies a whole folder before RUN at Stagefile:3") == true)
    }
}
