import Foundation
import StageKit

/// The text and JSON that `stagebuild stages` prints.
enum TemplateReport {
    static func list(_ templates: [StageTemplate]) -> String {
        guard !templates.isEmpty else { return "no stage templates found on the catalog search path\n" }
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
            let value = parameter.defaultWord.map { "default \($0.isEmpty ? "(empty)" : $0)" } ?? "required"
            text += "  \(parameter.name)  \(value)\n"
            if !parameter.documentation.isEmpty { text += "      \(parameter.documentation)\n" }
        }
        return text
    }

    static func json(_ templates: [StageTemplate], detailed: Bool, cwd: String) -> String {
        let objects: [[String: Any]] = templates.map { template in
            var object: [String: Any] = [
                "name": template.name, "kind": template.kind.rawValue, "summary": template.summary,
                "requires": template.requires, "path": Paths.relative(template.path, from: cwd),
            ]
            object["parameters"] = template.parameters.map { parameter -> [String: Any] in
                var entry: [String: Any] = [
                    "name": parameter.name, "required": parameter.isRequired, "documentation": parameter.documentation,
                ]
                entry["default"] = parameter.defaultWord ?? NSNull()
                return entry
            }
            return object
        }
        let value: Any = detailed ? objects[0] : objects
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
