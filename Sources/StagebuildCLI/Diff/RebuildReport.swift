import Serialization
import StageKit

/// `stagebuild diff`'s report of a prediction: text for a terminal, Markdown for a
/// pull-request comment, JSON for machines (`docs/cache-rules.md`, "The JSON report").
struct RebuildReport {
    /// The prediction.
    var prediction: RebuildPrediction
    /// The advice found for it.
    var advice: [RebuildAdvice]
    /// How the base side was named (`HEAD~1`, a folder).
    var base: String

    /// Where a step comes from: `file:line`, or its composed line when compose wrote it.
    static func place(_ step: BuildStep) -> String {
        step.origin.map { "\($0.file):\($0.line)" } ?? "composed line \(step.line)"
    }

    /// The template a provenance path names, from its file name.
    static func template(of origin: Composition.LineOrigin?) -> String? {
        guard let file = origin?.file, file.hasSuffix(StageCatalog.fileSuffix) else { return nil }
        return String(Paths.fileName(of: file).dropLast(StageCatalog.fileSuffix.count))
    }

    /// A stage's one-line verdict, e.g. `rebuilds 3 of 7 layers`.
    static func verdict(_ outcome: RebuildPrediction.StageOutcome) -> String {
        switch outcome.status {
        case .unchanged: "unchanged"
        case .configurationOnly: "no layer rebuilds; the image configuration changes"
        case .rebuilds: "rebuilds \(outcome.rebuiltLayers) of \(outcome.layers) layers"
        case .mayRebuild: "may rebuild \(outcome.rebuiltLayers) of \(outcome.layers) layers"
        case .removed: "removed"
        }
    }

    /// The text report.
    func text() -> String {
        var text = "Comparing \(base) with the working tree under \(prediction.rules.displayName)'s cache rules.\n"
        for outcome in prediction.stages {
            text += "\nbuild stage \(outcome.name): \(Self.verdict(outcome))\n"
            if let first = outcome.firstMiss {
                let template = Self.template(of: first.step.origin).map { " (template \($0))" } ?? ""
                text += "  first \(first.cache == .miss ? "miss" : "possible miss"): \(Self.place(first.step))\(template): "
                text += RebuildCause.short(first.step.text) + "\n"
                for cause in first.causes { text += "    because \(cause)\n" }
                let after = outcome.steps.filter { $0.addsLayer && $0.cache != .hit }.count - (first.addsLayer ? 1 : 0)
                if after > 0 { text += "  then \(after) more layer(s) after it\n" }
            }
            for change in outcome.configurationChanges {
                text += "  configuration: \(Self.place(change.step)): \(RebuildCause.short(change.step.text))\n"
                for cause in change.causes { text += "    because \(cause)\n" }
            }
        }
        if !advice.isEmpty { text += "\n" }
        for item in advice {
            text += "advice: \(item.origin.map { "\($0.file):\($0.line): " } ?? "")\(item.message)\n"
        }
        return text + "\n" + summary() + "\n"
    }

    /// The closing line: how many build stages rebuild and how many layers.
    func summary() -> String {
        let rebuilding = prediction.stages.filter { $0.status == .rebuilds || $0.status == .mayRebuild }
        let possible = rebuilding.filter { $0.status == .mayRebuild }.count
        let layers = rebuilding.reduce(0) { $0 + $1.rebuiltLayers }
        let total = prediction.stages.reduce(0) { $0 + $1.layers }
        let stages = prediction.stages.filter { $0.status != .removed }.count
        let may = possible > 0 ? " (\(possible) of them may)" : ""
        return "\(rebuilding.count) of \(stages) build stage(s) rebuild\(may): \(layers) of \(total) layers"
    }

    /// The Markdown report: a table of build stages, then each rebuilding stage's steps.
    ///
    /// Text from the files (instructions, values, names) stays text in a pull-request comment:
    /// in a table cell Markdown's punctuation is escaped, HTML and @mentions are made inert and
    /// the cell is one line; instructions go in code spans fenced longer than any run of
    /// backticks they hold (CommonMark, "Code spans").
    func markdown() -> String {
        var text = "### What this change rebuilds\n\n"
        text += "Base \(Self.code(base)), \(prediction.rules.displayName)'s cache rules. \(summary()).\n\n"
        text += "| build stage | layers rebuilt | first miss | because |\n| --- | --- | --- | --- |\n"
        for outcome in prediction.stages {
            let first = outcome.firstMiss
            let place =
                first.map { Self.code(Self.place($0.step)) + " " + Self.code(RebuildCause.short($0.step.text)) } ?? "–"
            let causes =
                first.map { $0.causes.map { Self.cell($0.description) }.joined(separator: "; ") }
                ?? Self.cell(Self.verdict(outcome))
            let layers = outcome.status == .removed ? "–" : "\(outcome.rebuiltLayers) of \(outcome.layers)"
            text += "| \(Self.cell(outcome.name)) | \(layers) | \(place) | \(causes) |\n"
        }
        for outcome in prediction.stages where outcome.status == .rebuilds || outcome.status == .mayRebuild {
            let summary = MarkupText.escaped("build stage \(outcome.name): \(Self.verdict(outcome))")
            text += "\n<details><summary>\(summary)</summary>\n\n"
            text += "| line | instruction | cache |\n| --- | --- | --- |\n"
            for step in outcome.steps where step.addsLayer {
                let place = Self.code(Self.place(step.step))
                text += "| \(place) | \(Self.code(RebuildCause.short(step.step.text))) | \(step.cache.rawValue) |\n"
            }
            text += "\n</details>\n"
        }
        if !advice.isEmpty { text += "\n**Advice**\n\n" }
        for item in advice {
            text += "- \(item.origin.map { Self.code("\($0.file):\($0.line)") + ": " } ?? "")\(Self.cell(item.message))\n"
        }
        return text
    }

    /// Text as one Markdown table cell that reads as written.
    static func cell(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\n", "\r": escaped += " "
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "@": escaped += "&#64;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!": escaped += "\\" + String(character)
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Text as a code span in a table cell: fenced by one backtick more than its longest run
    /// of them, `|` escaped (it would end the cell even there), on one line.
    static func code(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        var longest = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A space each side keeps a backtick at either end from joining the fence.
        let padding = longest > 0 ? " " : ""
        return fence + padding + flat + padding + fence
    }

    /// The JSON report.
    func json() -> String {
        func origin(_ step: BuildStep) -> [(String, JSONValue)] {
            [
                ("file", .string(step.origin?.file)), ("line", .integer(step.origin?.line)),
                ("composedLine", .integer(step.line)), ("template", .string(Self.template(of: step.origin))),
            ]
        }
        func stepValue(_ outcome: RebuildPrediction.StepOutcome) -> JSONValue {
            .object(
                [("keyword", .string(outcome.step.keyword))] + origin(outcome.step) + [
                    ("instruction", .string(RebuildCause.short(outcome.step.text))), ("layer", .bool(outcome.addsLayer)),
                    ("cache", .string(outcome.cache.rawValue)), ("causes", .array(outcome.causes.map(Self.json))),
                ])
        }
        let stages: [JSONValue] = prediction.stages.map { outcome in
            .object([
                ("name", .string(outcome.name)), ("status", .string(outcome.status.rawValue)),
                ("layers", .integer(outcome.layers)), ("rebuiltLayers", .integer(outcome.rebuiltLayers)),
                ("startCauses", .array(outcome.startCauses.map(Self.json))),
                ("firstMiss", outcome.firstMiss.map(stepValue) ?? .null),
                ("configurationChanges", .array(outcome.configurationChanges.map(stepValue))),
                ("steps", .array(outcome.steps.map(stepValue))),
            ])
        }
        let adviceValues: [JSONValue] = advice.map { item in
            .object([
                ("stage", .string(item.stage)), ("file", .string(item.origin?.file)), ("line", .integer(item.origin?.line)),
                ("message", .string(item.message)),
            ])
        }
        return JSONValue.object([
            ("base", .string(base)), ("rules", .string(prediction.rules.rawValue)), ("stages", .array(stages)),
            ("advice", .array(adviceValues)),
        ]).text() + "\n"
    }

    /// A cause as JSON: its `kind`, its fields and its one-line `description`.
    static func json(_ cause: RebuildCause) -> JSONValue {
        var members: [(String, JSONValue)]
        switch cause {
        case .stageAdded: members = [("kind", .string("stage-added"))]
        case .baseImage(let old, let new):
            members = [("kind", .string("base-image")), ("old", .string(old)), ("new", .string(new))]
        case .baseStage(let name): members = [("kind", .string("base-stage")), ("stage", .string(name))]
        case .instructionChanged(let old, let new):
            members = [("kind", .string("instruction-changed")), ("old", .string(old)), ("new", .string(new))]
        case .instructionAdded: members = [("kind", .string("instruction-added"))]
        case .instructionRemoved(let old, let origin):
            members = [
                ("kind", .string("instruction-removed")), ("old", .string(old)), ("file", .string(origin?.file)),
                ("line", .integer(origin?.line)),
            ]
        case .variable(let change):
            members = [
                ("kind", .string(change.isSnapshot ? "snapshot" : change.binding != nil ? "parameter" : "variable")),
                ("name", .string(change.name)), ("old", .string(change.old)), ("new", .string(change.new)),
                ("template", .string(change.binding?.template)), ("file", .string(change.binding?.file ?? change.setAt?.file)),
                ("line", .integer(change.binding?.location.line ?? change.setAt?.line)),
            ]
        case .runsWith(let setting, let old, let new):
            members = [
                ("kind", .string("runs-with")), ("setting", .string(setting)), ("old", .string(old)), ("new", .string(new)),
            ]
        case .contextFiles(let source, let changes):
            members = [
                ("kind", .string("context-files")), ("source", .string(source)),
                (
                    "files",
                    .array(changes.map { .object([("path", .string($0.path)), ("change", .string($0.kind.rawValue))]) })
                ),
            ]
        case .copiedStage(let name): members = [("kind", .string("copied-stage")), ("stage", .string(name))]
        }
        return .object(members + [("description", .string(cause.description))])
    }
}
