import DockerfileSyntax

extension LintDocument {
    /// One build stage: the instructions from one `FROM` to the next.
    struct BuildStage: Sendable {
        /// The `FROM` instruction; `nil` for the instructions before the first `FROM`.
        var from: Entry?
        /// The index of each instruction of the stage in `LintDocument.entries`, `FROM` excluded.
        var entryIndices: [Int]

        /// What `FROM` names: an image, `scratch`, an earlier stage, or `stage:NAME` in a Stagefile.
        var base: String? { from?.instruction.arguments.first }

        /// The name after `AS`, lower-cased as BuildKit compares stage names.
        var alias: String? {
            guard let arguments = from?.instruction.arguments, arguments.count >= 3, arguments[1].uppercased() == "AS" else {
                return nil
            }
            return arguments[2].lowercased()
        }

        /// True for a Stagefile's `FROM stage:NAME`: the base is a stage template.
        var isTemplateReference: Bool { base?.hasPrefix("stage:") ?? false }
    }

    static func buildStages(_ entries: [Entry]) -> [BuildStage] {
        var stages: [BuildStage] = []
        var current = BuildStage(from: nil, entryIndices: [])
        for (index, entry) in entries.enumerated() {
            if entry.instruction.kind == "FROM" {
                if current.from != nil || !current.entryIndices.isEmpty { stages.append(current) }
                current = BuildStage(from: entry, entryIndices: [])
            } else {
                current.entryIndices.append(index)
            }
        }
        stages.append(current)
        return stages
    }

    /// The instructions of a stage.
    ///
    /// - Parameter stage: A stage of this document.
    func entries(of stage: BuildStage) -> [Entry] {
        stage.entryIndices.map { entries[$0] }
    }

    /// Whether a stage adds Stagefile layer templates (`USE NAME`), whose instructions the
    /// document cannot see.
    ///
    /// - Parameter stage: A stage of this document.
    func usesLayerTemplates(_ stage: BuildStage) -> Bool {
        entries(of: stage).contains { $0.instruction.kind == "USE" }
    }

    /// The names of all build stages, lower-cased.
    var stageNames: Set<String> { Set(stages.compactMap(\.alias)) }

    /// The `ARG` defaults declared before the first `FROM`, which `FROM` lines may use.
    var globalArguments: [String: String] {
        guard let first = stages.first, first.from == nil else { return [:] }
        return variables(in: first.entryIndices)
    }

    /// The values of variables visible to an instruction: global `ARG` defaults, then `ARG`
    /// defaults and `ENV` values of its build stage before it.
    ///
    /// - Parameter entryIndex: The instruction's index in `entries`.
    /// - Returns: Values by name, quotes removed, references inside them left as written.
    func variables(before entryIndex: Int) -> [String: String] {
        guard let stage = stages.first(where: { $0.entryIndices.contains(entryIndex) }) else { return globalArguments }
        let earlier = stage.entryIndices.filter { $0 < entryIndex }
        guard stage.from != nil else { return variables(in: earlier) }
        return globalArguments.merging(variables(in: earlier)) { _, stageValue in stageValue }
    }

    private func variables(in indices: [Int]) -> [String: String] {
        var values: [String: String] = [:]
        for index in indices {
            let arguments = entries[index].instruction.arguments
            switch entries[index].instruction.kind {
            case "ARG":
                for word in arguments {
                    guard let equals = word.firstIndex(of: "=") else { continue }
                    values[String(word[..<equals])] = unquoted(String(word[word.index(after: equals)...]))
                }
            case "ENV":
                for pair in stride(from: 0, to: arguments.count - 1, by: 2) {
                    values[arguments[pair]] = unquoted(arguments[pair + 1])
                }
            default:
                break
            }
        }
        return values
    }

    /// Expands `$NAME`, `${NAME}`, `${NAME:-default}` and `${NAME-default}` with known values.
    ///
    /// - Parameters:
    ///   - text: The text, e.g. `debian:${RELEASE}`.
    ///   - variables: The known values.
    /// - Returns: The expanded text, or `nil` when a reference has no known value or uses
    ///   another form.
    static func expand(_ text: String, with variables: [String: String]) -> String? {
        let scalars = text.scalars
        var result = String.UnicodeScalarView()
        var index = 0
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "$", index < scalars.count else {
                result.append(scalar)
                continue
            }
            if scalars[index] == "{" {
                guard let close = scalars[index...].firstIndex(of: "}") else { return nil }
                let inner = scalars[(index + 1)..<close]
                index = close + 1
                let name = String(String.UnicodeScalarView(inner.prefix(while: isNameScalar)))
                let modifier = inner.dropFirst(name.unicodeScalars.count)
                let value = variables[name]
                if modifier.isEmpty {
                    guard let value else { return nil }
                    result.append(contentsOf: value.unicodeScalars)
                } else if modifier.starts(with: [":", "-"]) || modifier.first == "-" {
                    let useDefault = modifier.first == ":" ? (value ?? "").isEmpty : value == nil
                    let fallback = String(String.UnicodeScalarView(modifier.drop(while: { $0 == ":" }).dropFirst()))
                    guard let chosen = useDefault ? expand(fallback, with: variables) : value else { return nil }
                    result.append(contentsOf: chosen.unicodeScalars)
                } else {
                    return nil
                }
            } else if isNameScalar(scalars[index]) {
                let name = String(String.UnicodeScalarView(scalars[index...].prefix(while: isNameScalar)))
                index += name.unicodeScalars.count
                guard let value = variables[name] else { return nil }
                result.append(contentsOf: value.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
