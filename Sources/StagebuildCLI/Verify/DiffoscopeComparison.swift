import Archives
import Foundation
import StageKit

/// `verify --diffoscope`: each pair of differing files handed to Debian's `diffoscope`, whose
/// text is kept for the report under the file's path (diffoscope(1), `--text`).
struct DiffoscopeComparison {
    /// The `diffoscope` program.
    var program: String
    /// Where the file pairs are written.
    var folder: String
    /// The environment diffoscope runs with.
    var environment: [String: String]

    /// The most file pairs compared per image, and the most lines kept of each comparison.
    static let pairsPerImage = 10
    static let linesKept = 200
    /// The largest file handed over, in bytes.
    static let largestFile = 64 << 20

    /// The key a comparison is kept under: the stage, the layer's index and the path.
    static func key(stage: String, layer: Int, path: String) -> String { "\(stage)\u{0}\(layer)\u{0}\(path)" }

    /// Compares the differing files of an explained image.
    ///
    /// - Parameter explanation: The image's explanation.
    /// - Returns: diffoscope's text by ``key(stage:layer:path:)``.
    func compare(_ explanation: ImageExplanation) -> [String: String] {
        var texts: [String: String] = [:]
        var budget = Self.pairsPerImage
        for layer in explanation.layers {
            guard budget > 0, layer.index < explanation.comparison.first.layers.count,
                layer.index < explanation.comparison.second.layers.count
            else { continue }
            let wanted = layer.causes.flatMap(\.differences).filter { difference in
                difference.aspects.contains(.content) && difference.first?.type == .regular
                    && difference.second?.type == .regular
                    && max(difference.first?.size ?? 0, difference.second?.size ?? 0) <= Int64(Self.largestFile)
            }.prefix(budget).map(\.path)
            guard !wanted.isEmpty else { continue }
            budget -= wanted.count
            let blobs = (
                explanation.comparison.first.layers[layer.index].path, explanation.comparison.second.layers[layer.index].path
            )
            guard let first = contents(of: Set(wanted), in: blobs.0), let second = contents(of: Set(wanted), in: blobs.1) else {
                continue
            }
            for (number, path) in wanted.enumerated() {
                guard let a = first[path], let b = second[path] else { continue }
                let pair = folder + "/\(explanation.stage.filter { $0.isLetter || $0.isNumber })-\(layer.index)-\(number)"
                let name = Paths.fileName(of: "/" + path)
                do {
                    for (side, bytes) in [("first", a), ("second", b)] {
                        try FileManager.default.createDirectory(atPath: pair + "/" + side, withIntermediateDirectories: true)
                        try Data(bytes).write(to: URL(fileURLWithPath: pair + "/" + side + "/" + name))
                    }
                } catch {
                    continue
                }
                texts[Self.key(stage: explanation.stage, layer: layer.index, path: path)] = run(
                    pair + "/first/" + name, pair + "/second/" + name)
            }
        }
        return texts
    }

    /// The whole content of each wanted path of a layer blob.
    private func contents(of paths: Set<String>, in blob: String) -> [String: [UInt8]]? {
        guard let reader = try? TarReader(path: blob) else { return nil }
        var found: [String: [UInt8]] = [:]
        while found.count < paths.count,
            let entry = try? reader.next(keepingPrefix: { paths.contains($0) ? Self.largestFile : 0 })
        {
            if paths.contains(entry.path) { found[entry.path] = entry.contentPrefix }
        }
        return found
    }

    private func run(_ first: String, _ second: String) -> String {
        let child = ChildProcess(
            program: program, arguments: ["--text", "-", "--no-progress", first, second], environment: environment, deadline: 120)
        guard let result = try? child.run() else { return "diffoscope did not finish within 120 s" }
        // diffoscope exits 1 when the files differ, which they do.
        guard result.status == 0 || result.status == 1 else {
            return "diffoscope failed (status \(result.status)): "
                + String(decoding: result.errorOutput, as: UTF8.self).split(separator: "\n").suffix(3).joined(separator: " ")
        }
        var lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // Its first lines name the two temporary paths; the report names the path itself.
        while let line = lines.first, line.hasPrefix("--- ") || line.hasPrefix("+++ ") { lines.removeFirst() }
        if lines.last?.isEmpty == true { lines.removeLast() }
        let kept = lines.prefix(Self.linesKept).joined(separator: "\n")
        return lines.count > Self.linesKept ? kept + "\n[\(lines.count - Self.linesKept) more lines]" : kept
    }
}
