/// `USER user[:group]` (Dockerfile reference, "USER").
public struct UserInstruction: Sendable, Hashable {
    /// The whole value as written, e.g. `node:node` or `1000`.
    public var word: InstructionWord
    /// The user name or UID, e.g. `node`.
    public var user: String
    /// The group name or GID after `:`; `nil` without one.
    public var group: String?
}

extension Instruction {
    /// The instruction read as `USER`; `nil` for any other keyword or without a value.
    public var asUser: UserInstruction? {
        guard knownKeyword == .user, let word = argumentWords.first else { return nil }
        let parts = word.text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return UserInstruction(word: word, user: String(parts[0]), group: parts.count == 2 ? String(parts[1]) : nil)
    }

    /// The one value of `WORKDIR`, `STOPSIGNAL` or `MAINTAINER`, as written; `nil` for other
    /// keywords or without a value.
    public var singleValue: InstructionWord? {
        guard [.workdir, .stopsignal, .maintainer].contains(knownKeyword) else { return nil }
        return argumentWords.first
    }

    /// The ports of `EXPOSE` (e.g. `8080/tcp`) or the paths of `VOLUME`; `nil` for other
    /// keywords.
    public var listValues: [InstructionWord]? {
        guard knownKeyword == .expose || knownKeyword == .volume else { return nil }
        return argumentWords
    }
}
