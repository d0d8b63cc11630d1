import DockerfileSyntax
import Serialization

extension DockerfileDocument {
    /// What a variable reference stands for when lint reads a file.
    enum VariableValue: Sendable, Hashable {
        /// The value the file gives it (an `ARG` default or an `ENV` value), its own references
        /// already expanded.
        case known(String)
        /// Declared, but its value holds a reference lint cannot resolve, so any text built
        /// from it is unknown too.
        case unknown
    }

    /// The `ARG` and `ENV` values of a file, indexed so that the values visible to any
    /// instruction are found in logarithmic time: rules ask once per instruction, so a scan
    /// of the instructions before it would make linting quadratic.
    ///
    /// What is visible follows BuildKit: the `ARG` defaults declared before the first `FROM`
    /// (the global arguments, which `FROM` lines may use), then the `ARG` defaults and `ENV`
    /// values of the instruction's own build stage before it. A value's own references are
    /// expanded where it is declared, as BuildKit expands them. An `ARG` without a default
    /// leaves a known value as it is (it is how a build stage takes in a global argument).
    struct VariableScope: Sendable {
        /// The global arguments with their final values.
        private(set) var global: [String: VariableValue] = [:]
        /// Each name's assignments in build stages, in file order.
        private var assignments: [String: [(entryIndex: Int, value: VariableValue)]] = [:]
        /// The build stage of each instruction, by its index in `DockerfileDocument.entries`.
        private let stageOfEntry: [Int]

        /// Indexes the `ARG` and `ENV` instructions of a document.
        ///
        /// - Parameters:
        ///   - entries: The instructions in file order.
        ///   - stages: The build stages.
        ///   - stageOfEntry: The stage index of each instruction.
        ///   - unquote: Removes quotes from an `ARG` default or `ENV` value as BuildKit reads it.
        init(entries: [Entry], stages: [BuildStage], stageOfEntry: [Int], unquote: (String) -> String) {
            self.stageOfEntry = stageOfEntry
            let firstFromStage = stages.firstIndex { $0.from != nil }
            for (index, entry) in entries.enumerated() {
                let pairs: [(name: String, value: String?)]
                if let arg = entry.instruction.asArg {
                    pairs = arg.declarations.map { ($0.name.text, $0.defaultValue.map { unquote($0.text) }) }
                } else if entry.keyword == .env, let env = entry.instruction.asKeyValue {
                    pairs = env.pairs.map { ($0.key.text, unquote($0.value.text)) }
                } else {
                    continue
                }
                let isGlobal = firstFromStage.map { stageOfEntry[index] < $0 } ?? false
                for (name, raw) in pairs {
                    guard let raw else { continue }
                    let expanded = DockerfileDocument.expand(raw) { self.value(of: $0, before: index) }
                    let value = expanded.map(VariableValue.known) ?? .unknown
                    if isGlobal && entry.keyword == .arg {
                        global[name] = value
                    } else {
                        assignments[name, default: []].append((index, value))
                    }
                }
            }
        }

        /// The value of a variable as an instruction sees it.
        ///
        /// - Parameters:
        ///   - name: The variable's name.
        ///   - entryIndex: The instruction's index in `DockerfileDocument.entries`.
        /// - Returns: Its value; `nil` when no `ARG` default or `ENV` value is visible.
        func value(of name: String, before entryIndex: Int) -> VariableValue? {
            let stage = entryIndex < stageOfEntry.count ? stageOfEntry[entryIndex] : -1
            if let list = assignments[name] {
                // The last assignment before the instruction, found by binary search.
                let low = list.partitioningIndex { $0.entryIndex >= entryIndex }
                if low > 0, stageOfEntry[list[low - 1].entryIndex] == stage { return list[low - 1].value }
            }
            return global[name]
        }

        /// The value of a global argument, as a `FROM` line sees it.
        ///
        /// - Parameter name: The argument's name.
        func globalValue(of name: String) -> VariableValue? { global[name] }
    }

    /// Expands the variable references in a word of an instruction with the values visible to it.
    ///
    /// - Parameters:
    ///   - text: The word with quotes already removed, references as written.
    ///   - entryIndex: The instruction's index in `entries`.
    /// - Returns: The expanded text, or `nil` when a reference has no known value.
    func expand(_ text: String, before entryIndex: Int) -> String? {
        guard text.contains("$") else { return text }
        return Self.expand(text) { variables.value(of: $0, before: entryIndex) }
    }

    /// Expands the variable references in a `FROM` line's image with the global arguments.
    ///
    /// - Parameter text: The word with quotes already removed, references as written.
    /// - Returns: The expanded text, or `nil` when a reference has no known value.
    func expandGlobal(_ text: String) -> String? {
        guard text.contains("$") else { return text }
        return Self.expand(text) { variables.globalValue(of: $0) }
    }

    /// The names a word refers to (`$NAME`, `${NAME…}`), in order, each once.
    ///
    /// - Parameter text: The word, e.g. `${A}-$B`.
    /// - Returns: The names, e.g. `["A", "B"]`.
    static func references(in text: String) -> [String] {
        var names: [String] = []
        _ = expand(text) { name in
            if !name.isEmpty && !names.contains(name) { names.append(name) }
            return .known("")
        }
        return names
    }

    /// Expands `$NAME`, `${NAME}`, `${NAME:-default}` and `${NAME-default}` through a lookup.
    ///
    /// - Parameters:
    ///   - text: The text, e.g. `debian:${RELEASE}`.
    ///   - lookup: A variable's value; `nil` when it has none.
    /// - Returns: The expanded text, or `nil` when a reference has no known value, names a
    ///   variable whose value is unknown, or uses another form.
    static func expand(_ text: String, lookup: (String) -> VariableValue?) -> String? {
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
                let value = lookup(name)
                if case .unknown = value { return nil }
                let known: String? = if case .known(let text) = value { text } else { nil }
                if modifier.isEmpty {
                    guard let known else { return nil }
                    result.append(contentsOf: known.unicodeScalars)
                } else if modifier.starts(with: [":", "-"]) || modifier.first == "-" {
                    let useDefault = modifier.first == ":" ? (known ?? "").isEmpty : known == nil
                    let fallback = String(String.UnicodeScalarView(modifier.drop(while: { $0 == ":" }).dropFirst()))
                    guard let chosen = useDefault ? expand(fallback, lookup: lookup) : known else { return nil }
                    result.append(contentsOf: chosen.unicodeScalars)
                } else {
                    return nil
                }
            } else if isNameScalar(scalars[index]) {
                let name = String(String.UnicodeScalarView(scalars[index...].prefix(while: isNameScalar)))
                index += name.unicodeScalars.count
                guard case .known(let value) = lookup(name) else { return nil }
                result.append(contentsOf: value.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
