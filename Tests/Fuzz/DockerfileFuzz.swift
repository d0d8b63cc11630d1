import DockerfileSyntax

/// The Dockerfile parser (`DockerfileParser.parse`). For every input it accepts:
/// - printing the untouched tree gives the input back byte for byte (what compose relies on to
///   pass a file through);
/// - instruction lines run forward: each starts after the previous one ends;
/// - each instruction's own text, parsed alone under the file's escape directive, is the same
///   instruction (keyword, flags, arguments, form, heredocs): an instruction's meaning does not
///   depend on its neighbours, as in BuildKit's line-by-line parser;
/// - every typed view can be built.
enum DockerfileFuzz {
    static let target = FuzzTarget(name: "dockerfile", check: check, grow: grow)

    static func check(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        guard let tree = try? DockerfileParser.parse(text) else { return }
        if tree.text != text { invariantFailed("dockerfile", "the printed tree differs from the input") }
        var previousEnd = 0
        for element in tree.elements {
            guard case .instruction(let instruction) = element.kind else { continue }
            if instruction.startLine <= previousEnd || instruction.endLine < instruction.startLine {
                invariantFailed("dockerfile", "lines \(instruction.startLine)-\(instruction.endLine) after line \(previousEnd)")
            }
            previousEnd = instruction.endLine
            readEveryView(instruction)
            checkAlone(instruction, text: element.text, escape: tree.directives.escapeCharacter)
        }
    }

    /// Builds each typed view the instruction's keyword has (the others answer `nil`).
    private static func readEveryView(_ instruction: Instruction) {
        _ = (instruction.asFrom, instruction.asArg, instruction.asKeyValue, instruction.asCopy, instruction.asRun)
        _ = (instruction.command, instruction.asUser, instruction.singleValue, instruction.listValues)
        _ = (instruction.asHealthcheck, instruction.onbuildTrigger, try? instruction.templateReference())
    }

    private static func checkAlone(_ instruction: Instruction, text: String, escape: EscapeCharacter) {
        // After a blank line, so that a byte order mark the text may start with is not the file's.
        let source = (escape == .backslash ? "" : "# escape=`\n") + "\n" + text
        guard let alone = try? DockerfileParser.parse(source), alone.instructions.count == 1 else {
            invariantFailed("dockerfile", "line \(instruction.startLine) does not parse alone as one instruction")
        }
        let other = alone.instructions[0]
        let same =
            other.keyword == instruction.keyword && other.flags == instruction.flags && other.arguments == instruction.arguments
            && other.isJSONForm == instruction.isJSONForm && other.heredocs == instruction.heredocs
        if !same { invariantFailed("dockerfile", "line \(instruction.startLine) means something else alone") }
    }

    /// The file repeated, each copy ending in a line feed so copies do not join lines.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        let copy = seed.last == UInt8(ascii: "\n") ? seed : seed + [UInt8(ascii: "\n")]
        return Array(repeating: copy, count: factor).flatMap { $0 }
    }
}
