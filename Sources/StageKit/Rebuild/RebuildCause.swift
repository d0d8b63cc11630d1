/// Why a builder's cache misses for a step, in the project's own terms.
public enum RebuildCause: Sendable, Hashable {
    /// The build stage is new: nothing of it is cached.
    case stageAdded
    /// The base image changed: another reference, or the same one pinned to another digest.
    case baseImage(old: String, new: String)
    /// The build stage starts from another that rebuilds.
    case baseStage(String)
    /// The instruction's own text changed where the template or Stagefile writes it.
    case instructionChanged(old: String, new: String)
    /// An instruction is there that the base side does not have at this point.
    case instructionAdded
    /// The base side's instruction at this point is gone.
    case instructionRemoved(old: String, origin: Composition.LineOrigin?)
    /// A variable the step sees has another value.
    case variable(VariableChange)
    /// The user, working folder or shell the step runs with changed (`USER`, `WORKDIR`, `SHELL`).
    case runsWith(setting: String, old: String, new: String)
    /// Files of the build context the step copies or mounts changed.
    case contextFiles(source: String, changes: [ContextFileChange])
    /// The step copies from a build stage that rebuilds; the copied files may be the same, so
    /// the builder may still find the step in its cache.
    case copiedStage(String)

    /// Whether the cause makes the step miss for certain; false for ``copiedStage(_:)``.
    public var isCertain: Bool {
        if case .copiedStage = self { return false }
        return true
    }
}

/// A variable seen with another value, with where the value comes from.
public struct VariableChange: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// The base side's value; `nil` when not set there.
    public var old: String?
    /// The new side's value; `nil` when not set.
    public var new: String?
    /// The template or Stagefile line that sets it on the new side (the base side's when it
    /// is gone).
    public var setAt: Composition.LineOrigin?
    /// The Stagefile's binding when the value is a template parameter the Stagefile gives.
    public var binding: Composition.ParameterBinding?
    /// Whether it is a snapshot parameter (`DEBIAN_SNAPSHOT`, …; `lock --snapshot` moves it).
    public var isSnapshot: Bool
    /// The instruction that sets it, `ARG` or `ENV`; `nil` when not known.
    public var setBy: String?
}

/// One context file that differs between two sides.
public struct ContextFileChange: Sendable, Hashable {
    /// How it differs.
    public enum Kind: String, Sendable, Hashable {
        /// Only the new side has it.
        case added
        /// Only the base side has it.
        case removed
        /// Both have it, with other content, executable bit or link target.
        case changed
    }

    /// Its path relative to the context root.
    public var path: String
    /// How it differs.
    public var kind: Kind

    /// A change.
    ///
    /// - Parameters:
    ///   - path: The path relative to the context root.
    ///   - kind: How it differs.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}

extension RebuildCause: CustomStringConvertible {
    /// One line: what changed, old and new values, and where, e.g. `parameter APP_PORT of
    /// node-service: 3000 -> 3001 (Stagefile:5:31)`.
    public var description: String {
        switch self {
        case .stageAdded:
            return "the build stage is new"
        case .baseImage(let old, let new):
            let oldName = old.split(separator: "@", maxSplits: 1).first.map(String.init) ?? old
            let newName = new.split(separator: "@", maxSplits: 1).first.map(String.init) ?? new
            if oldName == newName, let oldDigest = Self.digest(old), let newDigest = Self.digest(new) {
                return "image \(newName) digest moved \(oldDigest) -> \(newDigest) (stagebuild.lock)"
            }
            return "base image \(old) -> \(new)"
        case .baseStage(let name):
            return "it starts from build stage \(name), whose image changes"
        case .instructionChanged(let old, let new):
            let (before, after) = Self.changedWords(old, new)
            return "instruction changed: \(Self.short(before)) -> \(Self.short(after))"
        case .instructionAdded:
            return "instruction added"
        case .instructionRemoved(let old, let origin):
            return "instruction removed before it: \(Self.short(old))" + (origin.map { " (was \($0.file):\($0.line))" } ?? "")
        case .variable(let change):
            return change.description
        case .runsWith(let setting, let old, let new):
            return "\(setting) \(old) -> \(new)"
        case .contextFiles(let source, let changes):
            let shown = changes.prefix(5).map { "\($0.path) (\($0.kind.rawValue))" }.joined(separator: ", ")
            let more = changes.count > 5 ? " and \(changes.count - 5) more" : ""
            let noun = changes.count == 1 ? "context file" : "\(changes.count) context files"
            return "\(noun) of COPY source \(source) changed: \(shown)\(more)"
        case .copiedStage(let name):
            return "copies from build stage \(name), which rebuilds; the copied files may be the same"
        }
    }

    /// The short digest of a pinned reference, `sha256:` and 12 hex digits.
    private static func digest(_ reference: String) -> String? {
        guard let at = reference.firstIndex(of: "@") else { return nil }
        return String(reference[reference.index(after: at)...].prefix(19))
    }

    /// The words two texts differ in, each with one word of context on either side and `…`
    /// where words are left out, so that a change deep in a long `RUN` shows.
    static func changedWords(_ old: String, _ new: String) -> (String, String) {
        let before = old.split(whereSeparator: \.isWhitespace)
        let after = new.split(whereSeparator: \.isWhitespace)
        var prefix = 0
        while prefix < before.count && prefix < after.count && before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix && suffix < after.count - prefix
            && before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        {
            suffix += 1
        }
        func window(_ words: [Substring]) -> String {
            let start = max(0, prefix - 1)
            let end = min(words.count, words.count - suffix + 1)
            let shown = words[start..<max(start, end)].joined(separator: " ")
            return (start > 0 ? "… " : "") + shown + (end < words.count ? " …" : "")
        }
        return (window(before), window(after))
    }

    /// An instruction's text cut to one line of at most 80 characters.
    ///
    /// - Parameter text: An instruction's text.
    public static func short(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
        let squeezed = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        return squeezed.count > 80 ? String(squeezed.prefix(77)) + "..." : squeezed
    }
}

extension VariableChange: CustomStringConvertible {
    /// e.g. `parameter APP_PORT of node-service: 3000 -> 3001 (Stagefile:5:31)`,
    /// `snapshot DEBIAN_SNAPSHOT moved 20261101T000000Z -> 20261201T000000Z`.
    public var description: String {
        let values = "\(old.map(Self.shown) ?? "(unset)") -> \(new.map(Self.shown) ?? "(unset)")"
        if isSnapshot { return "snapshot \(name) moved \(values)" }
        if let binding {
            return
                "parameter \(name) of \(binding.template): \(values) (\(binding.file):\(binding.location.line):\(binding.location.column))"
        }
        return "\(name): \(values)" + (setAt.map { " (set at \($0.file):\($0.line))" } ?? "")
    }

    /// A value as shown: quoted when empty or holding a space.
    private static func shown(_ value: String) -> String {
        value.isEmpty || value.contains(" ") ? "\"\(value)\"" : value
    }
}
