import StageKit

/// `stagebuild stages`: lists the catalog, or shows one template's parameters and dependencies.
enum StagesCommand: Subcommand {
    static let name = "stages"
    static let summary = "List the stage templates, or show one template's parameters."
    static let usage = "stages [NAME] [--stages DIR]... [--format text|json]"
    static let discussion = """
        Without NAME, lists every template on the catalog search path: name, base or layer,
        summary. With NAME, shows its path, what it requires and each parameter's default,
        whether it is required, and its documentation.

        Catalog search path: each --stages DIR, then STAGEBUILD_STAGES (colon-separated), then
        the nearest Stages/ folder from the working directory upwards (up to the repository
        root), then the catalog installed next to the tool. A template that cannot be read is
        reported on stderr; the others are still listed.
        """
    static let options = [
        CatalogSearchPath.option,
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "text|json", help: "Output format (default text)."),
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        let format = try arguments.choice("--format", default: ArgumentScanner.TextOrJSON.text)
        guard arguments.positionals.count <= 1 else { throw CommandFailure.usage("expected at most one template name") }
        if let name = arguments.positionals.first, !StageCatalog.isValidName(name) {
            throw CommandFailure.usage(CatalogError.invalidName(name).description)
        }
        try CatalogSearchPath.checkExplicitFolders(arguments, context: context)
        let cwd = context.currentDirectory
        let catalog = CatalogSearchPath.catalog(
            arguments, context: context, fileSystem: context.fileSystem, startDirectory: cwd,
            display: { Paths.shown($0, from: cwd) })
        if let name = arguments.positionals.first {
            do {
                let template = try catalog.template(named: name)
                context.standardOutput.write(
                    format == .json
                        ? TemplateReport.json([template], detailed: true, cwd: cwd) : TemplateReport.detail(template, cwd: cwd))
                return .success
            } catch {
                throw failure(error)
            }
        }
        // One broken entry must not hide the others: list every good template, then report
        // each bad one and exit with the worst status.
        var templates: [StageTemplate] = []
        var failures: [CommandFailure] = []
        for name in catalog.names {
            do {
                templates.append(try catalog.template(named: name))
            } catch {
                failures.append(failure(error))
            }
        }
        for file in catalog.misnamedFiles {
            context.warn(
                "\(file) is skipped: a template name has letters, digits, '.', '_' and '-', and starts with a letter or digit")
        }
        context.standardOutput.write(
            format == .json
                ? TemplateReport.json(templates, detailed: false, cwd: cwd)
                : TemplateReport.list(templates, searched: catalog.searchedFolders))
        guard !failures.isEmpty else { return .success }
        // Each bad template's lines, with the worst status: 74 when a file could not be read.
        throw CommandFailure(
            exitCode: failures.contains { $0.exitCode == .ioError } ? .ioError : .dataError,
            reports: failures.flatMap(\.reports))
    }

    /// A catalog error: 74 when a file could not be read, 65 for a bad template (at its line).
    private static func failure(_ error: CatalogError) -> CommandFailure {
        switch error {
        case .malformed(let inner): CommandFailure(exitCode: .dataError, report: .diagnostic(.error(inner)))
        case .unreadable: .error(.ioError, error.description)
        default: .error(.dataError, error.description)
        }
    }
}
