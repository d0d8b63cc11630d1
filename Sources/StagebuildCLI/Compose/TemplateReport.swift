import Foundation
import Serialization
import StageKit

/// The text and JSON that `stagebuild stages` prints.
enum TemplateReport {
    /// The table of `stagebuild stages`; with no template, what was searched.
    ///
    /// - Parameters:
    ///   - templates: The templates, in name order.
    ///   - searched: The catalog folders that exist, as shown.
    static func list(_ templates: [StageTemplate], searched: [String]) -> String {
        guard !templates.isEmpty else {
            return "no stage templates found on the catalog search path (\(StageCatalog.searchedText(searched)))\n"
        }
        let width = max(4, templates.map(\.name.count).max() ?? 0)
        var text = "NAME".padding(toLength: width + 2, withPad: " ", startingAt: 0) + "KIND   SUMMARY\n"
        for template in templates {
            text += template.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            text += template.kind.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + template.summary + "\n"
        }
        return text
    }

    static func detail(_ template: StageTemplate, cwd: String) -> String {
        var text = "\(template.name) (\(template.kind.rawValue))\n  \(template.summary)\n"
        text += "path:     \(Paths.relative(template.path, from: cwd))\n"
        text += "requires: \(template.requires.isEmpty ? "-" : template.requires.joined(separator: ", "))\n"
        text +=
            "usage:    \(template.kind == .base ? "FROM stage:\(template.name) [AS alias] [KEY=VALUE ...]" : "USE \(template.name) [KEY=VALUE ...]")\n"
        guard !template.parameters.isEmpty else { return text + "parameters: none\n" }
        text += "parameters:\n"
        for parameter in template.parameters {
            let value =
                parameter.defaultWord.map { "default \($0.isEmpty ? "(empty)" : $0)" }
                ?? (parameter.isInFrom ? "required" : "required, unless the Stagefile has a global ARG of that name")
            text += "  \(parameter.name)  \(value)\(parameter.isInFrom ? "  (in FROM)" : "")\n"
            if !parameter.documentation.isEmpty { text += "      \(parameter.documentation)\n" }
        }
        for declaration in template.aptArchives {
            let fields = declaration.fields.keys.sorted().map { "\($0)=\(declaration.fields[$0] ?? "")" }
            text += "apt archive: \(declaration.kind.rawValue) \(fields.joined(separator: " "))\n"
        }
        return text
    }

    /// Each template as an object with its keys sorted: `name`, `kind`, `summary`, `requires`,
    /// `path`, `parameters` (`name`, `required`, `inFrom`, `documentation`, `default` as the
    /// builder reads it and `defaultWord` as written, or null) and
    /// `aptArchives` (`kind` and the fields as written); one object with `detailed`, else an array.
    static func json(_ templates: [StageTemplate], detailed: Bool, cwd: String) -> String {
        let objects: [JSONValue] = templates.map { template in
            let parameters: [JSONValue] = template.parameters.map { parameter in
                .sortedObject([
                    ("name", .string(parameter.name)), ("required", .bool(parameter.isRequired)),
                    ("inFrom", .bool(parameter.isInFrom)),
                    ("documentation", .string(parameter.documentation)), ("default", .string(parameter.defaultValue)),
                    ("defaultWord", .string(parameter.defaultWord)),
                ])
            }
            return .sortedObject([
                ("name", .string(template.name)), ("kind", .string(template.kind.rawValue)),
                ("summary", .string(template.summary)), ("requires", .array(template.requires.map(JSONValue.string))),
                ("path", .string(Paths.relative(template.path, from: cwd))), ("parameters", .array(parameters)),
                (
                    "aptArchives",
                    .array(
                        template.aptArchives.map { declaration in
                            .sortedObject(
                                [("kind", .string(declaration.kind.rawValue))]
                                    + declaration.fields.map { ($0.key, JSONValue.string($0.value)) })
                        })
                ),
            ])
        }
        return (detailed ? objects[0] : .array(objects)).text() + "\n"
    }
}
