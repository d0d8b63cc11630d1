import Archives
import Foundation
import Serialization
import StageKit

/// `stagebuild verify`'s report: per build stage, reproducible or each differing layer with
/// its instruction, template line, causes, paths and fixes; as text or JSON
/// (`docs/verify-json.md`).
struct VerifyReport {
    /// A variation as the run applied it, or why it could not.
    struct VariationNote {
        /// The variation's name (`--vary`).
        var name: String
        /// Whether the second build differed in it.
        var applied: Bool
        /// How, or why not.
        var detail: String

        /// The notes for a run's variations.
        static func notes(
            for variations: BuildVariations, cpus: Int, started: (first: Date, second: Date), builder: ImageBuilder.Kind
        ) -> [VariationNote] {
            BuildVariations.Variation.allCases.map { variation in
                guard variations.has(variation) else {
                    return VariationNote(name: variation.rawValue, applied: false, detail: "not asked for")
                }
                if let why = builder.unapplied(variation) {
                    return VariationNote(name: variation.rawValue, applied: false, detail: why)
                }
                switch variation {
                case .time:
                    return VariationNote(
                        name: "time", applied: true,
                        detail:
                            "the builds started \(Int(started.second.timeIntervalSince(started.first))) s apart, in other minutes; "
                            + "the second context's files carry the time of the copy")
                case .buildPath:
                    return VariationNote(
                        name: "build_path", applied: true, detail: "the second context is a copy at another path")
                case .fileOrdering:
                    return VariationNote(
                        name: "fileordering", applied: true, detail: "the copy's entries were made in reverse order")
                case .umask:
                    return VariationNote(
                        name: "umask", applied: true, detail: "the copy's files and folders are group-writable (umask 0002)")
                case .numCPUs:
                    return cpus > 1
                        ? VariationNote(name: "num_cpus", applied: true, detail: "\(cpus) CPUs, then 1 (taskset -c 0)")
                        : VariationNote(name: "num_cpus", applied: false, detail: "this machine has one CPU")
                case .domainHost:
                    return VariationNote(
                        name: "domain_host", applied: true,
                        detail:
                            "\(builder.rawValue) names each build container's host after its ID; the domain name is not varied")
                case .userGroup:
                    // Not reached: every builder's `unapplied` answers for it above. The switch
                    // names every variation so that a new one must say how it is applied.
                    return VariationNote(name: "user_group", applied: false, detail: "not applied")
                case .environment:
                    return VariationNote(
                        name: "environment", applied: true,
                        detail: "no_proxy (which \(builder.rawValue) passes on to the build), TZ, LANG and LC_ALL")
                }
            }
        }
    }

    var source: String
    var builder: String
    /// `nil` for `--compare`, which builds nothing.
    var sourceDateEpoch: Int?
    var notes: [VariationNote]
    var explanations: [ImageExplanation]
    /// diffoscope's text for each file pair it compared (`DiffoscopeComparison.key`).
    var diffoscope: [String: String] = [:]

    /// The most paths listed per cause in the text report.
    static let pathsShown = 5

    /// The text report.
    func text() -> String {
        var lines: [String] = []
        if let sourceDateEpoch {
            lines.append("verify: \(source), each target built twice with \(builder), SOURCE_DATE_EPOCH=\(sourceDateEpoch)")
            let applied = notes.filter(\.applied).map { "\($0.name) (\($0.detail))" }
            lines.append("varied: " + (applied.isEmpty ? "nothing" : applied.joined(separator: "; ")))
        } else {
            lines.append("verify: \(source), compared")
        }
        for note in notes where !note.applied && note.detail != "not asked for" {
            lines.append("not varied: \(note.name): \(note.detail)")
        }
        for explanation in explanations {
            lines.append("")
            let comparison = explanation.comparison
            if explanation.reproducible {
                lines.append("\(explanation.stage): reproducible (\(comparison.first.configDigest))")
                continue
            }
            let differing = explanation.layers.count
            lines.append(
                "\(explanation.stage): not reproducible: \(differing) of \(comparison.first.layers.count) layers and "
                    + "\(explanation.fields.count) configuration field\(explanation.fields.count == 1 ? "" : "s") differ")
            if !explanation.attributed {
                lines.append(
                    "  (the image's history is not \(explanation.stage)'s instructions: no layer is named by its line)")
            }
            for layer in explanation.layers {
                lines.append("  layer \(layer.index + 1): \(instructionLine(layer, attributed: explanation.attributed))")
                if let stage = layer.step.flatMap({ Self.copiedStage($0.text) }) {
                    lines.append("    (its files come from build stage \(stage): fix them where that stage writes them)")
                }
                switch layer.outcome {
                case .compressionOnly(let first, let second):
                    lines.append("    the same files, compressed differently (\(first) against \(second))")
                case .onlyInFirst:
                    lines.append("    only the first build has this layer")
                case .onlyInSecond:
                    lines.append("    only the second build has this layer")
                case .identical, .differs:
                    break
                }
                for change in layer.packageChanges {
                    var line =
                        "    package \(change.name): \(change.first ?? "not installed") against \(change.second ?? "not installed")"
                    if let step = layer.step, let version = change.first {
                        line +=
                            Self.pins(change.name, in: step.text)
                            ? " (pinned on this line, yet installed at another version)"
                            : " (not pinned on this line: \(change.name)=\(version) or a snapshot would have held it)"
                    }
                    lines.append(line)
                }
                for group in layer.causes {
                    lines.append("    \(group.cause.id): \(group.cause.summary)")
                    for difference in group.differences.prefix(Self.pathsShown) {
                        lines.append("      /\(difference.path): \(Self.describe(difference))")
                        let key = DiffoscopeComparison.key(stage: explanation.stage, layer: layer.index, path: difference.path)
                        if let text = diffoscope[key] {
                            lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { "        | " + $0 }
                        }
                    }
                    if group.differences.count > Self.pathsShown {
                        lines.append("      and \(group.differences.count - Self.pathsShown) more")
                    }
                    lines.append("      fix: \(group.cause.fix)")
                }
            }
            if !explanation.fields.isEmpty {
                lines.append("  configuration:")
                let following = explanation.fields.filter { $0.cause == .followsLayers }
                if !following.isEmpty {
                    lines.append(
                        "    \(following.count) field\(following.count == 1 ? "" : "s") follow\(following.count == 1 ? "s" : "") from the layers (follows-layers): "
                            + Self.fieldNames(following.map(\.field.path)))
                }
                for finding in explanation.fields where finding.cause != .followsLayers {
                    lines.append(
                        "    \(finding.field.path): \(finding.field.first ?? "absent") against \(finding.field.second ?? "absent") "
                            + "(\(finding.cause.id))")
                }
                let causes = explanation.fields.map(\.cause).reduce(into: [ReproducibilityCause]()) { list, cause in
                    if !list.contains(cause) { list.append(cause) }
                }
                for cause in causes where cause != .followsLayers { lines.append("    fix (\(cause.id)): \(cause.fix)") }
            }
        }
        return lines.map(ControlCharacters.escaped).joined(separator: "\n") + "\n"
    }

    /// Field paths with their indexes folded: `rootfs.diff_ids[], history[].comment`.
    private static func fieldNames(_ paths: [String]) -> String {
        var names: [String] = []
        for path in paths {
            var folded = ""
            var inIndex = false
            for character in path {
                if character == "[" {
                    inIndex = true
                    folded.append("[")
                } else if character == "]" {
                    inIndex = false
                    folded.append("]")
                } else if !inIndex {
                    folded.append(character)
                }
            }
            if !names.contains(folded) { names.append(folded) }
        }
        return names.joined(separator: ", ")
    }

    /// `RUN …  (Dockerfile line 12, from Stages/x.Dockerfile:4)`, or the base image.
    private func instructionLine(_ layer: ImageExplanation.LayerFinding, attributed: Bool) -> String {
        guard let step = layer.step else {
            guard attributed else { return "no instruction known" }
            guard let base = explanationBase(layer) else {
                return "no instruction known (no Dockerfile, or a base image's layer)"
            }
            return "from the base image \(base)"
        }
        var text = step.text.split(separator: "\n").first.map(String.init) ?? step.text
        if text.count > 100 { text = String(text.prefix(97)) + "..." }
        let origin = step.origin.map { ", from \($0.file):\($0.line)" } ?? ""
        return "\(text)  (composed line \(step.line)\(origin))"
    }

    private func explanationBase(_ layer: ImageExplanation.LayerFinding) -> String? {
        explanations.first { $0.layers.contains { $0.index == layer.index } }?.baseImage
    }

    /// The stage a `COPY --from=STAGE` copies from.
    static func copiedStage(_ instruction: String) -> String? {
        guard instruction.uppercased().hasPrefix("COPY") else { return nil }
        let word = instruction.split(separator: " ").first { $0.lowercased().hasPrefix("--from=") }
        return word.map { String($0.dropFirst(7)) }
    }

    /// Whether an instruction pins a package (`NAME=VERSION`, as apt-get takes it).
    static func pins(_ package: String, in instruction: String) -> Bool {
        let name = package.split(separator: ":").first.map(String.init) ?? package
        return instruction.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\\" }).contains {
            $0.hasPrefix(name + "=")
        }
    }

    /// What differs at a path, in a few words.
    static func describe(_ difference: EntryDifference) -> String {
        guard let first = difference.first, let second = difference.second else {
            return difference.first == nil ? "only in the second build" : "only in the first build"
        }
        var parts: [String] = []
        for aspect in difference.aspects {
            switch aspect {
            case .content:
                if let text = DifferingText(first.contentPrefix, second.contentPrefix) {
                    parts.append("content \(Self.quoted(text.first)) against \(Self.quoted(text.second))")
                } else {
                    parts.append(
                        "content \(first.contentDigest?.hex.prefix(12) ?? "") against \(second.contentDigest?.hex.prefix(12) ?? "")"
                    )
                }
            case .modificationTime:
                parts.append("mtime \(first.modificationSeconds) against \(second.modificationSeconds)")
            case .permissions:
                parts.append("mode \(String(first.permissions, radix: 8)) against \(String(second.permissions, radix: 8))")
            case .owner:
                parts.append("owner \(first.userID):\(first.groupID) against \(second.userID):\(second.groupID)")
            case .size:
                parts.append("size \(first.size) against \(second.size)")
            case .type:
                parts.append("type \(first.type.rawValue) against \(second.type.rawValue)")
            case .linkTarget:
                parts.append("link to \(first.linkTarget ?? "") against \(second.linkTarget ?? "")")
            case .extendedAttributes:
                parts.append("extended attributes")
            }
        }
        return parts.joined(separator: ", ")
    }

    private static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return "\"" + shown + "\""
    }

    /// The JSON report (`docs/verify-json.md`).
    func json() -> String {
        let variations = JSONValue.array(
            notes.map { .object([("name", .string($0.name)), ("applied", .bool($0.applied)), ("detail", .string($0.detail))]) })
        let images = JSONValue.array(explanations.map(imageJSON))
        let document = JSONValue.object([
            ("source", .string(source)), ("builder", .string(builder)), ("sourceDateEpoch", .integer(sourceDateEpoch)),
            ("reproducible", .bool(explanations.allSatisfy(\.reproducible))), ("variations", variations), ("images", images),
        ])
        return document.text() + "\n"
    }

    private func imageJSON(_ explanation: ImageExplanation) -> JSONValue {
        let comparison = explanation.comparison
        func image(_ image: OCIImage) -> JSONValue {
            .object([
                ("config", .string(image.configDigest)), ("diffIDs", .array(image.layers.map { .string($0.diffID) })),
            ])
        }
        let fields = JSONValue.array(
            explanation.fields.map { finding in
                .object([
                    ("path", .string(finding.field.path)), ("first", .string(finding.field.first)),
                    ("second", .string(finding.field.second)), ("cause", .string(finding.cause.id)),
                ])
            })
        let layers = JSONValue.array(explanation.layers.map { layerJSON($0, stage: explanation.stage) })
        return .object([
            ("stage", .string(explanation.stage)), ("reproducible", .bool(explanation.reproducible)),
            ("attributed", .bool(explanation.attributed)),
            ("baseImage", .string(explanation.baseImage)), ("first", image(comparison.first)),
            ("second", image(comparison.second)), ("layerCount", .integer(comparison.first.layers.count)),
            ("fields", fields), ("layers", layers),
        ])
    }

    private func layerJSON(_ layer: ImageExplanation.LayerFinding, stage: String) -> JSONValue {
        let outcome: String
        var orderDiffers = false
        switch layer.outcome {
        case .identical: outcome = "identical"
        case .compressionOnly: outcome = "compressionOnly"
        case .onlyInFirst: outcome = "onlyInFirst"
        case .onlyInSecond: outcome = "onlyInSecond"
        case .differs(let comparison):
            outcome = "differs"
            orderDiffers = comparison.orderDiffers
        }
        let instruction: JSONValue =
            layer.step.map { step in
                .object([
                    ("text", .string(step.text)), ("line", .integer(step.line)),
                    ("origin", step.origin.map { .object([("file", .string($0.file)), ("line", .integer($0.line))]) } ?? .null),
                ])
            } ?? .null
        let packages = JSONValue.array(
            layer.packageChanges.map { change in
                .object([
                    ("name", .string(change.name)), ("first", .string(change.first)), ("second", .string(change.second)),
                    ("pinned", .bool(layer.step.map { Self.pins(change.name, in: $0.text) })),
                ])
            })
        let causes = JSONValue.array(
            layer.causes.map { group in
                .object([
                    ("id", .string(group.cause.id)), ("summary", .string(group.cause.summary)), ("fix", .string(group.cause.fix)),
                    (
                        "paths",
                        .array(
                            group.differences.map {
                                Self.differenceJSON(
                                    $0,
                                    diffoscope: diffoscope[
                                        DiffoscopeComparison.key(stage: stage, layer: layer.index, path: $0.path)])
                            })
                    ),
                ])
            })
        return .object([
            ("index", .integer(layer.index)), ("outcome", .string(outcome)), ("instruction", instruction),
            ("entryOrderDiffers", .bool(orderDiffers)), ("packages", packages), ("causes", causes),
        ])
    }

    private static func differenceJSON(_ difference: EntryDifference, diffoscope: String?) -> JSONValue {
        func entry(_ entry: TarEntry?) -> JSONValue {
            guard let entry else { return .null }
            return .object([
                ("type", .string(entry.type.rawValue)), ("mode", .string(String(entry.permissions, radix: 8))),
                ("uid", .integer(Int(entry.userID))), ("gid", .integer(Int(entry.groupID))),
                ("mtime", .integer(Int(entry.modificationSeconds))), ("size", .integer(Int(entry.size))),
                ("sha256", .string(entry.contentDigest?.hex)), ("linkTarget", .string(entry.linkTarget)),
            ])
        }
        let text = difference.first.flatMap { first in
            difference.second.flatMap { DifferingText(first.contentPrefix, $0.contentPrefix) }
        }
        return .object([
            ("path", .string("/" + difference.path)), ("aspects", .array(difference.aspects.map { .string($0.rawValue) })),
            ("first", entry(difference.first)), ("second", entry(difference.second)),
            ("text", text.map { .object([("first", .string($0.first)), ("second", .string($0.second))]) } ?? .null),
            ("diffoscope", .string(diffoscope)),
        ])
    }
}
