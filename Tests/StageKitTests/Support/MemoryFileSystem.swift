import StageKit
import Testing

/// Files held in memory, for compositions that need no disk: absolute path -> text.
struct MemoryFileSystem: FileSystem {
    var files: [String: String]

    func readText(at path: String) throws(FileSystemError) -> String {
        guard let text = files[path] else { throw FileSystemError(path: path, reason: "No such file or directory") }
        return text
    }

    func entries(ofDirectory path: String) -> [String] {
        let prefix = path + "/"
        // A folder is there when a file below it is.
        let names = files.keys.filter { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count).prefix { $0 != "/" }) }
        return Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    func resolvingSymlinks(_ path: String) -> String? {
        if files[path] != nil { return path }
        return files.keys.contains { $0.hasPrefix(path + "/") } ? path : nil
    }
}

/// A project held in memory: the Stagefile at `/work/project/Stagefile`, its catalog at
/// `/work/project/Stages` unless a test moves it.
struct MemoryProject {
    /// Template name -> file text.
    var templates: [String: String]
    var stagefileDirectory = "/work/project"
    var catalogFolder = "/work/project/Stages"
    var regenerateCommand = "stagebuild compose Stagefile -o Dockerfile (run in the Stagefile's folder)"

    init(templates: [String: String]) {
        self.templates = templates
    }

    var composer: Composer {
        var files: [String: String] = [:]
        for (name, text) in templates { files[catalogFolder + "/" + name + StageCatalog.fileSuffix] = text }
        let base = stagefileDirectory
        let catalog = StageCatalog(
            folders: [catalogFolder], fileSystem: MemoryFileSystem(files: files), display: { Paths.relative($0, from: base) })
        return Composer(
            catalog: catalog, stagefileDirectory: stagefileDirectory, stagefileName: "Stagefile",
            regenerateCommand: regenerateCommand)
    }

    /// Parses and composes a Stagefile's text.
    func compose(_ stagefile: String) throws(CompositionError) -> String {
        try composer.compose(try Stagefile(text: stagefile, displayPath: "Stagefile"))
    }

    /// Composes text that must fail, and returns the error.
    func error(composing stagefile: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> CompositionError? {
        do {
            let output = try compose(stagefile)
            Issue.record("composed although it should fail:\n\(output)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}
