import DockerfileSyntax

/// SB037: a shell-form `CMD`, `ENTRYPOINT` or `HEALTHCHECK` reads a variable that only an
/// `ARG` declares (a template parameter, say). Build arguments exist while the image is built;
/// the container's shell runs these commands later, where only `ENV` values exist, so the
/// reference is empty there.
///
/// Judged: names declared by an `ARG` of the build stage, of a stage it is built on, or before
/// the first `FROM`, set by no `ENV` of those stages, not by the command line itself and not by
/// the container runtime (`HOME`, `PATH`, `HOSTNAME`). A reference with a fallback
/// (`${PORT:-80}`) or an escaped `\$` is not judged. A base image's own `ENV` is not seen.
///
/// Source: Dockerfile reference, "ARG" ("ARG variables are not persisted into the built
/// image as ENV variables are") and "Using ARG variables" (copy an argument into `ENV` to keep
/// it).
struct SB037BuildArgumentReadAtRunTime: LintRule {
    let id = "SB037"
    let name = "build-argument-read-at-run-time"
    let severity = LintSeverity.warning
    let summary = "A shell-form CMD, ENTRYPOINT or HEALTHCHECK reads a variable only an ARG declares, which is empty at run time."
    let hint = "keep it for run time with ENV NAME=${NAME} after the ARG, or write the value itself"
    let triggeringExamples = [
        "FROM alpine:3.20\nARG PORT=8080\nCMD exec /app --port \"$PORT\"\n",
        "ARG APP_DIR=/srv/app\nFROM alpine:3.20\nARG APP_DIR\nHEALTHCHECK CMD test -f ${APP_DIR}/ready\n",
    ]
    let nonTriggeringExamples = [
        "FROM alpine:3.20\nARG PORT=8080\nENV PORT=${PORT}\nCMD exec /app --port \"$PORT\"\n",
        "FROM alpine:3.20\nCMD exec /app --home \"$HOME\"\n",
        "FROM alpine:3.20 AS base\nARG PORT=8080\nENV PORT=$PORT\nFROM base\nCMD exec /app --port $PORT\n",
        "FROM alpine:3.20\nARG PORT=8080\nCMD [\"/app\"]\n",
        "FROM alpine:3.20\nARG APP_PORT=8080\nCMD echo \\$APP_PORT\n",
        "FROM alpine:3.20\nARG APP_PORT=8080\nCMD export APP_PORT=9000; exec /app $APP_PORT\n",
        "FROM alpine:3.20\nARG HOME=/root\nCMD exec /app --home $HOME\n",
        "FROM alpine:3.20\nARG APP_PORT=8080\nCMD exec /app --port ${APP_PORT:-80}\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        let firstFrom = document.stages.firstIndex { $0.from != nil }
        let globalArguments = Set(
            document.stages.indices.filter { index in firstFrom.map { index < $0 } ?? false }
                .flatMap { Self.names(declaredBy: .arg, in: document.stages[$0], of: document) })
        var findings: [LintFinding] = []
        for (index, entry) in document.entries.enumerated() {
            let command = document.containerCommand(of: entry)
            guard case .shell(let line) = command, let stage = document.stageIndex(ofEntry: index) else { continue }
            let chain = document.stageChain(of: stage).map { document.stages[$0] }
            let arguments = globalArguments.union(chain.flatMap { Self.names(declaredBy: .arg, in: $0, of: document) })
            let environment = Set(chain.flatMap { Self.names(declaredBy: .env, in: $0, of: document) })
            let assigned = Self.assignedNames(in: line.text)
            let readable = arguments.subtracting(environment).subtracting(assigned).subtracting(Self.runtimeNames)
            guard let name = Self.references(in: line.text).first(where: readable.contains) else { continue }
            findings.append(
                finding(
                    "\(entry.kind) reads $\(name) when the container runs, where the build argument \(name) does not exist",
                    at: entry.instruction.location(of: line)))
        }
        return findings
    }

    /// The names an `ARG` or `ENV` of a stage declares.
    private static func names(
        declaredBy keyword: Keyword, in stage: DockerfileDocument.BuildStage, of document: DockerfileDocument
    ) -> [String] {
        document.entries(of: stage).filter { $0.keyword == keyword }.flatMap { entry in
            keyword == .arg
                ? (entry.instruction.asArg?.declarations.map(\.name.text) ?? [])
                : (entry.instruction.asKeyValue?.pairs.map(\.key.text) ?? [])
        }
    }

    /// Names the container runtime sets in every container (Docker's and Podman's defaults,
    /// and the shell's own), whatever the image says.
    private static let runtimeNames: Set<String> = ["HOME", "PATH", "HOSTNAME", "PWD", "TERM", "SHLVL", "OLDPWD"]

    /// The names of the `$NAME` and `${NAME}` references of a command line, outside single
    /// quotes and not escaped; a reference with a fallback (`${NAME:-80}`) is left out, as its
    /// author expects it may be empty.
    private static func references(in text: String) -> [String] {
        var names: [String] = []
        var quoted = false
        var scalars = text.unicodeScalars[...]
        func isName(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        while let scalar = scalars.popFirst() {
            if scalar == "\\" && !quoted {
                scalars = scalars.dropFirst()
                continue
            }
            if scalar == "'" { quoted.toggle() }
            guard scalar == "$", !quoted else { continue }
            let braced = scalars.first == "{"
            if braced { scalars = scalars.dropFirst() }
            let name = scalars.prefix(while: isName)
            scalars = scalars.dropFirst(name.count)
            if name.isEmpty || (braced && scalars.first != "}") { continue }
            names.append(String(String.UnicodeScalarView(name)))
        }
        return names
    }

    /// The names a command line sets itself: `NAME=…` assignments, also after `export`,
    /// `local`, `declare` or `readonly`, and the names `read` fills.
    private static func assignedNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        for command in ShellScript(text, locate: { _ in SourceLocation(line: 1, column: 1) }).commands {
            let setters: Set<String> = ["export", "local", "declare", "readonly", "typeset"]
            let words = command.program.map(setters.contains) == true ? Array(command.arguments) : command.words
            for word in words where ShellScript.Command.isAssignment(word.text) {
                names.insert(String(word.text.prefix { $0 != "=" && $0 != "+" }))
            }
            if command.program == "read" {
                for word in command.arguments where !word.text.hasPrefix("-") { names.insert(word.text) }
            }
        }
        return names
    }
}
