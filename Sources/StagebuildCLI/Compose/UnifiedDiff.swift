/// A unified diff (`diff -u` format) of two texts, line by line, with three lines of context.
enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// - Parameters:
    ///   - old: The text on disk.
    ///   - new: The text that should be there.
    ///   - oldName: The label of the old side, e.g. `a/Dockerfile`.
    ///   - newName: The label of the new side.
    /// - Returns: The diff, empty when the texts are equal.
    static func diff(old: String, new: String, oldName: String, newName: String) -> String {
        guard old != new else { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = self.edits(a, b)
        var output = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        var oldLine = 1
        var newLine = 1
        let context = 3
        while index < edits.count {
            guard let change = edits[index...].firstIndex(where: { $0 != .same(text(of: $0)) }) else { break }
            let skipped = change - index
            let lead = min(skipped, context)
            oldLine += skipped - lead
            newLine += skipped - lead
            var start = change - lead
            var end = change
            var sameRun = 0
            while end < edits.count {
                if case .same = edits[end] {
                    sameRun += 1
                    if sameRun > 2 * context { break }
                } else {
                    sameRun = 0
                }
                end += 1
            }
            end -= max(0, sameRun - context)
            let hunk = edits[start..<end]
            let oldCount = hunk.filter { if case .added = $0 { false } else { true } }.count
            let newCount = hunk.filter { if case .removed = $0 { false } else { true } }.count
            // An empty range is numbered by the line before it (`-0,0` for an empty file), as diff -u does.
            let oldStart = oldCount == 0 ? oldLine - 1 : oldLine
            let newStart = newCount == 0 ? newLine - 1 : newLine
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for edit in hunk {
                switch edit {
                case .same(let line): output += " " + printed(line)
                case .removed(let line): output += "-" + printed(line)
                case .added(let line): output += "+" + printed(line)
                }
            }
            oldLine += oldCount
            newLine += newCount
            start = end
            index = end
        }
        return output
    }

    private static func text(of edit: Edit) -> String {
        switch edit {
        case .same(let line), .removed(let line), .added(let line): return line
        }
    }

    /// Marks a last line that has no line feed, so that a missing final newline is a change
    /// and prints as `diff -u` prints it.
    private static let noNewlineMarker = "\u{0}no newline"

    /// Lines split at LF only (on Unicode scalars: a CRLF is one Swift `Character`), so a
    /// carriage return stays visible as part of its line.
    private static func lines(_ text: String) -> [String] {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        if lines.last == "" {
            lines.removeLast()
        } else if let last = lines.popLast() {
            lines.append(last + noNewlineMarker)
        }
        return lines
    }

    /// A line as printed after its `+`, `-` or space.
    private static func printed(_ line: String) -> String {
        guard line.hasSuffix(noNewlineMarker) else { return line + "\n" }
        return String(line.dropLast(noNewlineMarker.count)) + "\n\\ No newline at end of file\n"
    }

    /// The shortest edit script from the longest common subsequence.
    private static func edits(_ a: [String], _ b: [String]) -> [Edit] {
        var length = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                length[i][j] = a[i] == b[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append(.same(a[i]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || length[i + 1][j] >= length[i][j + 1] {
                // Removed lines before added ones, as diff -u prints a changed line.
                edits.append(.removed(a[i]))
                i += 1
            } else {
                edits.append(.added(b[j]))
                j += 1
            }
        }
        return edits
    }
}
