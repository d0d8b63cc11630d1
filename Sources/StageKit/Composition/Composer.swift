import DockerfileSyntax
import Serialization

/// Layers stage templates and a Stagefile's own steps into one Dockerfile.
///
/// Within each build stage, `requires` is followed transitively: each template appears once,
/// before its first dependent; otherwise the Stagefile's order holds, and templates required
/// by the same one come in name order. The output depends only on the Stagefile, the
/// templates and the format version: LF line endings, one trailing newline, no time stamps,
/// no absolute paths, nothing from the environment.
public struct Composer: Sendable {
    /// Bumped whenever the same inputs would give different output.
    public static let formatVersion = 1

    /// The catalog templates are loaded from.
    public var catalog: StageCatalog
    /// The directory of the Stagefile; provenance paths are relative to it.
    public var stagefileDirectory: String
    /// The Stagefile's file name, as written into the output (never a path that depends on
    /// where the tool ran).
    public var stagefileName: String
    /// The command line that regenerates the output, written into its header.
    public var regenerateCommand: String

    /// Creates a composer.
    ///
    /// - Parameters:
    ///   - catalog: Where templates come from.
    ///   - stagefileDirectory: The absolute directory of the Stagefile.
    ///   - stagefileName: The Stagefile's file name for the output.
    ///   - regenerateCommand: The command shown in the header, e.g. `stagebuild compose Stagefile -o Dockerfile`.
    public init(catalog: StageCatalog, stagefileDirectory: String, stagefileName: String, regenerateCommand: String) {
        self.catalog = catalog
        self.stagefileDirectory = stagefileDirectory
        self.stagefileName = stagefileName
        self.regenerateCommand = regenerateCommand
    }

    /// Composes a Stagefile.
    ///
    /// - Parameter stagefile: The parsed Stagefile.
    /// - Returns: The Dockerfile text.
    /// - Throws: `CompositionError` for an unknown template (with the closest names), a base
    ///   template used with `USE` or a layer with `FROM stage:`, an unknown or missing
    ///   parameter, one parameter bound to two values in a build stage, a `requires` cycle,
    ///   and a template whose escape character or `# syntax=` differs from the Stagefile's.
    public func compose(_ stagefile: Stagefile) throws(CompositionError) -> String {
        try composition(of: stagefile).text
    }

    /// Composes a Stagefile and tells what the result is made of: the templates it used and
    /// the images it names; with a lockfile, every image the lockfile holds comes out pinned,
    /// `IMAGE:TAG@sha256:…`, and the header names the lockfile.
    ///
    /// - Parameters:
    ///   - stagefile: The parsed Stagefile.
    ///   - lockfile: The lockfile beside the Stagefile, or `nil` to leave images as written.
    ///   - snapshots: Snapshot moments by parameter, written where the Stagefile gives that
    ///     parameter none (`lock --snapshot`); the lockfile's when `nil`.
    /// - Returns: The composition.
    /// - Throws: `CompositionError` as ``compose(_:)``, and for an apt archive declaration whose
    ///   values make no archive.
    public func composition(
        of stagefile: Stagefile, lockfile: Lockfile? = nil, snapshots: [String: String]? = nil
    ) throws(CompositionError) -> Composition {
        var session = CompositionSession(composer: self, stagefile: stagefile, isLocked: lockfile != nil)
        session.lockedSnapshots = snapshots ?? lockfile?.snapshots ?? [:]
        let text = try session.run()
        var composition = Composition(
            text: text, templates: session.templates.values.sorted { $0.name < $1.name }, images: session.imageMentions())
        composition.lineOrigins = session.lineOrigins()
        composition.rewrittenColumns = session.rewrittenColumns()
        composition.warnings = session.warnings
        (composition.packageStages, composition.variablePackagePins) = try session.packageStages()
        composition.parameterBindings = session.parameterBindings
        if let lockfile { composition.pin(with: lockfile) }
        return composition
    }
}

/// One line of composed text (without its line end) and where it comes from.
struct ComposedLine {
    var text: String
    var origin: Composition.LineOrigin?
    /// For a base template's `FROM` as compose writes it: the image and its 1-based column.
    var fromImage: (written: String, column: Int, sourceColumn: Int)?

    /// The lines of an element's text, line ends made LF (heredoc bodies keep theirs), each
    /// with its line in `file`.
    static func lines(of element: SyntaxElement, in file: String) -> [ComposedLine] {
        var text = element.textWithLFLineEnds
        text.makeContiguousUTF8()
        // A byte scan: a large Stagefile has tens of thousands of lines.
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var lines: [ComposedLine] = []
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                lines.append(
                    ComposedLine(
                        text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                        origin: Composition.LineOrigin(file: file, line: element.startLine + lines.count)))
                start = end + 1
            }
            return lines
        } ?? []
    }
}
