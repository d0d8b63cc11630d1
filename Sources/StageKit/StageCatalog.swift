/// The stage templates visible from a search path of catalog folders; the first folder that
/// holds a name wins.
public struct StageCatalog: Sendable {
    /// The file name suffix of a template: `<name>.Dockerfile`.
    public static let fileSuffix = ".Dockerfile"

    /// The catalog folders in search order, absolute.
    public var folders: [String]
    /// The folder of the catalog installed with the tool, when it is one of ``folders``: where
    /// it lies differs from machine to machine, so composed output names its templates by file
    /// name alone (``shownPath(of:from:)``).
    public var installedFolder: String?
    /// The folder of the project the Stagefile belongs to (its repository root), symbolic
    /// links resolved: templates inside it are named by their path relative to the Stagefile.
    public var projectRoot: String?
    /// The project's own catalog, the nearest `Stages/` folder from the Stagefile's folder
    /// upwards (symbolic links resolved), or `nil`: a command run in the Stagefile's folder
    /// finds it without `--stages`.
    public var projectFolder: String?
    /// How each folder came onto the search path; composed output names a template outside
    /// the project by its file name and that origin.
    public var origins: [String: FolderOrigin]
    private let fileSystem: any FileSystem
    /// How to show a path in messages (e.g. relative to the current directory).
    public let display: @Sendable (String) -> String

    /// How a catalog folder came onto the search path.
    public enum FolderOrigin: String, Sendable, Hashable {
        /// A `--stages DIR` option.
        case option = "--stages"
        /// The `STAGEBUILD_STAGES` environment variable.
        case environment = "STAGEBUILD_STAGES"
        /// The nearest `Stages/` folder from the Stagefile's folder upwards.
        case project = "Stages/ beside the project"
        /// The catalog installed next to the tool.
        case installed = "installed catalog"
    }

    /// Creates a catalog over folders.
    ///
    /// - Parameters:
    ///   - folders: Absolute catalog folders, in search order.
    ///   - installedFolder: The installed catalog's folder, or `nil`.
    ///   - fileSystem: Where files are read from.
    ///   - display: Turns an absolute path into the form shown to the user.
    ///   - projectRoot: The project's folder, symbolic links resolved, or `nil`.
    ///   - projectFolder: The project's own catalog folder, symbolic links resolved, or `nil`.
    ///   - origins: How each folder came onto the search path.
    public init(
        folders: [String], installedFolder: String? = nil, fileSystem: any FileSystem,
        display: @escaping @Sendable (String) -> String = { $0 }, projectRoot: String? = nil,
        projectFolder: String? = nil, origins: [String: FolderOrigin] = [:]
    ) {
        self.projectFolder = projectFolder
        self.folders = folders
        self.installedFolder = installedFolder
        self.projectRoot = projectRoot
        self.origins = origins
        self.fileSystem = fileSystem
        self.display = display
    }

    /// How composed output names a template's file, the same however its folder was reached
    /// (a symbolic link, `--stages` or `STAGEBUILD_STAGES`) and on every machine, so
    /// `compose --check` agrees between a laptop and a CI container: relative to the
    /// Stagefile's folder, symbolic links resolved, when the template lies in the project (or
    /// no project is known); otherwise `NAME.Dockerfile (installed catalog)` or
    /// `NAME.Dockerfile (catalog from STAGEBUILD_STAGES)`, after the search-path entry that
    /// found it.
    ///
    /// - Parameters:
    ///   - template: A template of this catalog.
    ///   - directory: The Stagefile's absolute folder.
    /// - Returns: The name to write into the provenance comment.
    public func shownPath(of template: StageTemplate, from directory: String) -> String {
        let fileName = template.name + Self.fileSuffix
        let folder = folders.first { template.path == $0 + "/" + fileName }
        let resolvedFolder = folder.map { fileSystem.resolvingSymlinks($0) ?? $0 } ?? Paths.directory(of: template.path)
        let resolvedFile = resolvedFolder + "/" + fileName
        let resolvedDirectory = fileSystem.resolvingSymlinks(directory) ?? directory
        if let folder, folder == installedFolder { return fileName + " (installed catalog)" }
        if let projectRoot, !(resolvedFile.hasPrefix(projectRoot + "/") || projectRoot == "/"),
            let folder, let origin = origins[folder]
        {
            return fileName + " (catalog from \(origin.rawValue))"
        }
        return Paths.relative(resolvedFile, from: resolvedDirectory)
    }

    /// Whether a folder lies in the project (see ``projectRoot``), symbolic links resolved.
    ///
    /// - Parameter folder: An absolute folder.
    public func isInProject(_ folder: String) -> Bool {
        guard let projectRoot else { return true }
        let resolved = fileSystem.resolvingSymlinks(folder) ?? folder
        return projectRoot == "/" || resolved == projectRoot || resolved.hasPrefix(projectRoot + "/")
    }

    /// A folder with symbolic links resolved, as the catalog's file system sees it.
    ///
    /// - Parameter folder: An absolute path.
    public func resolved(_ folder: String) -> String { fileSystem.resolvingSymlinks(folder) ?? folder }

    /// True for names that stay inside a catalog folder: letters, digits, `.`, `_` and `-`,
    /// starting with a letter or digit (so never `..`, `/x` or `a/b`).
    ///
    /// - Parameter name: A template name.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first)
        else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
        }
    }

    /// Every template name in the catalog, sorted, each once.
    public var names: [String] {
        Set(folders.flatMap(names(in:))).sorted()
    }

    /// The template names one folder holds, in the file system's order.
    ///
    /// - Parameter folder: An absolute folder.
    public func names(in folder: String) -> [String] {
        fileSystem.entries(ofDirectory: folder).filter { $0.hasSuffix(Self.fileSuffix) }.map {
            String($0.dropLast(Self.fileSuffix.count))
        }.filter(Self.isValidName)
    }

    /// The files of the catalog folders that end in `.Dockerfile` but whose names are not
    /// template names (``isValidName(_:)``), as ``display`` shows them: they are never loaded.
    public var misnamedFiles: [String] {
        folders.flatMap { folder in
            fileSystem.entries(ofDirectory: folder).sorted()
                .filter { $0.hasSuffix(Self.fileSuffix) && !Self.isValidName(String($0.dropLast(Self.fileSuffix.count))) }
                .map { display(folder + "/" + $0) }
        }
    }

    /// Loads a template by name.
    ///
    /// - Parameter name: The template name, e.g. `node-runtime`.
    /// - Returns: The parsed template.
    /// - Throws: `CatalogError.invalidName` for a name that could leave the folder,
    ///   `.notFound` with the closest names, `.outsideCatalog` for a file that resolves
    ///   (through a symbolic link) outside its folder, `.unreadable`, or the template's
    ///   own `CompositionError` as `.malformed`.
    public func template(named name: String) throws(CatalogError) -> StageTemplate {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        for folder in folders {
            let path = folder + "/" + name + Self.fileSuffix
            guard let resolved = fileSystem.resolvingSymlinks(path) else {
                if fileSystem.entryExists(at: path) { throw .unreadable(display(path), "symbolic link to a missing file") }
                continue
            }
            guard let root = fileSystem.resolvingSymlinks(folder), resolved.hasPrefix(root + "/") else {
                throw .outsideCatalog(name: name, path: display(path))
            }
            let text: String
            do {
                text = try fileSystem.readText(at: resolved)
            } catch {
                if error.isMalformedText { throw .malformed(CompositionError(error.reason, file: display(path))) }
                throw .unreadable(display(path), error.reason)
            }
            do {
                return try StageTemplate(name: name, text: text, path: path, displayPath: display(path))
            } catch {
                throw .malformed(error)
            }
        }
        throw .notFound(name: name, suggestions: NameSuggestions.closest(to: name, in: names), folders: searchedFolders)
    }

    /// What a message says was searched: the folders, or that none was found (an empty
    /// `Stages/` is passed over by the upward search, so it says so).
    ///
    /// - Parameter folders: ``searchedFolders``.
    public static func searchedText(_ folders: [String]) -> String {
        folders.isEmpty
            ? "no catalog folder with templates was found: give one with --stages DIR (an empty Stages/ folder is passed over)"
            : "searched " + folders.joined(separator: ", ")
    }

    /// The folders of the search path that exist, as shown to the user, in search order: what a
    /// message says was searched when no template was found.
    public var searchedFolders: [String] {
        folders.filter { fileSystem.resolvingSymlinks($0) != nil }.map(display)
    }
}

/// Why a template could not be loaded from a catalog.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name has characters that could leave the catalog folder.
    case invalidName(String)
    /// No folder holds the name; the closest names and the folders searched.
    case notFound(name: String, suggestions: [String], folders: [String])
    /// The file resolves to a path outside its catalog folder.
    case outsideCatalog(name: String, path: String)
    /// The file exists but cannot be read.
    case unreadable(String, String)
    /// The template itself is malformed.
    case malformed(CompositionError)

    /// A message for the user.
    public var description: String {
        switch self {
        case .invalidName(let name):
            return "invalid template name '\(name)': use letters, digits, '.', '_' and '-' (a name cannot contain a path)"
        case .notFound(let name, let suggestions, let folders):
            let searched = StageCatalog.searchedText(folders)
            let hint = suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
            return "unknown stage template '\(name)' (\(searched))\(hint)"
        case .outsideCatalog(let name, let path):
            return "stage template '\(name)' at \(path) resolves outside its catalog folder; refusing to read it"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformed(let error):
            return error.description
        }
    }
}
