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
        """
    static let options = [
        CatalogSearchPath.option,
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "text|json", help: "Output format (default text)."),
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) -> ExitCode {
        let format = arguments.value("--format") ?? "text"
        guard format == "text" || format == "json" else { throw UsageError("--format must be text or json, not '\(format)'") }
        guard arguments.positionals.count <= 1 else { throw UsageError("expected at most one template name") }
        let cwd = context.currentDirectory
        let catalog = StageCatalog(
            folders: CatalogSearchPath.folders(arguments, context: context), fileSystem: LocalFileSystem(),
            display: { Paths.relative($0, from: cwd) })
        do {
            if let name = arguments.positionals.first {
                let template = try catalog.template(named: name)
                context.standardOutput.write(
                    format == "json"
                        ? TemplateReport.json([template], detailed: true, cwd: cwd) : TemplateReport.detail(template, cwd: cwd))
            } else {
                let templates = try catalog.names.map { name throws(CatalogError) in try catalog.template(named: name) }
                context.standardOutput.write(
                    format == "json" ? TemplateReport.json(templates, detailed: false, cwd: cwd) : TemplateReport.list(templates))
            }
        } catch {
            if case .malformed(let inner) = error {
                context.standardError.write(Diagnostic.error(inner).rendered(color: context.usesColor))
                return .dataError
            }
            context.reportError(error.description)
            return .dataError
        }
        return .success
    }
}
