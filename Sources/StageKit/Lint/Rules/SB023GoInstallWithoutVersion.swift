import DockerfileSyntax

/// SB023: `go install` names a package with `@latest` (or the moving queries `@upgrade` and
/// `@patch`), or without `@VERSION`, so each build may build another version: `@latest` is
/// whatever was tagged last, and a package without a version takes the one the module in the
/// working folder happens to require (outside a module, the command fails). Local packages
/// (`.`, `./cmd/tool`, `/src/...`) and variable references are not checked.
///
/// Source: hadolint DL3062 ("Pin versions in go"); Go docs, "go install" (`pkg@version`
/// installs outside the main module) and "Version queries".
struct SB023GoInstallWithoutVersion: LintRule {
    let id = "SB023"
    let name = "go-install-without-version"
    let severity = LintSeverity.warning
    let summary = "go install names a package with @latest or without @version."
    let hint = "name a released version, e.g. go install golang.org/x/tools/gopls@v0.16.2"
    let triggeringExamples = [
        "FROM golang:1.23\nRUN go install golang.org/x/tools/gopls@latest\n",
        "RUN go install -ldflags '-s -w' github.com/go-delve/delve/cmd/dlv\n",
        "RUN CGO_ENABLED=0 go install -trimpath honnef.co/go/tools/cmd/staticcheck@upgrade\n",
    ]
    let nonTriggeringExamples = [
        "RUN go install golang.org/x/tools/gopls@v0.16.2\n",
        "RUN go install -trimpath ./cmd/... && go install .\n",
        "RUN go install \"github.com/go-delve/delve/cmd/dlv@${DLV_VERSION}\"\n",
        "RUN go build -o /out/app ./cmd/app\n",
    ]

    /// `go install`'s build flags that take the next word as their value.
    private static let valuedOptions: Set<String> = [
        "-C", "-p", "-asmflags", "-buildmode", "-compiler", "-gccgoflags", "-gcflags", "-installsuffix", "-ldflags",
        "-mod", "-modfile", "-overlay", "-pgo", "-pkgdir", "-tags", "-toolexec",
    ]

    /// Version queries that name no fixed version.
    private static let movingQueries: Set<String> = ["latest", "upgrade", "patch"]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        for script in document.runScripts {
            for command in script.commands {
                guard let go = PackageCommand(command, programs: ["go"], valuedOptions: Self.valuedOptions),
                    go.action == "install"
                else { continue }
                for package in go.operands {
                    let text = package.text
                    if text.hasPrefix(".") || text.hasPrefix("/") || text.contains("$") { continue }
                    guard let at = text.lastIndex(of: "@") else {
                        findings.append(finding("go install of \(text) without @version", at: package.location))
                        continue
                    }
                    let query = String(text[text.index(after: at)...])
                    if Self.movingQueries.contains(query) {
                        findings.append(finding("go install of \(text) names no fixed version", at: package.location))
                    }
                }
            }
        }
        return findings
    }
}
