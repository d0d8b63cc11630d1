import DockerfileSyntax

extension LintDocument {
    /// The `NAME=VERSION` operands of `apt-get install` and `apt install` in the document's
    /// `RUN` scripts (heredoc scripts and `sh -c` included), in file order, read in one pass
    /// with the same command reading as lint's apt rules: the Debian packages `stagebuild lock`
    /// resolves, and those whose name or version is a variable (`curl=${CURL_VERSION}`), which
    /// lock cannot resolve and refuses.
    ///
    /// - Parameters:
    ///   - file: The file's name as messages show it.
    ///   - path: The file's absolute path.
    /// - Returns: The pins, and each variable operand as written with its file and position.
    func packagePins(
        file: String, path: String
    ) -> (pins: [PackagePin], variable: [(written: String, file: String, location: SourceLocation)]) {
        var pins: [PackagePin] = []
        var variable: [(written: String, file: String, location: SourceLocation)] = []
        for script in runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), apt.action == "install" else { continue }
                for word in apt.operands {
                    if word.text.contains("=") && word.text.contains("$") {
                        variable.append((word.text, file, word.location))
                    } else if var pin = PackagePin(
                        operand: word.text, file: file, location: word.location, isQuoted: word.isQuoted)
                    {
                        pin.path = path
                        pin.targetRelease = apt.targetRelease
                        pins.append(pin)
                    }
                }
            }
        }
        return (pins, variable)
    }

    /// Where the document adds apt sources itself: a `COPY` or `ADD` into
    /// `/etc/apt/sources.list…`, or a `RUN` that calls `add-apt-repository`, names or writes
    /// a file there (`> …/x.list`, `tee …`, `cp … /etc/apt/sources.list.d/`, `sed -i …
    /// /etc/apt/sources.list`), mounts one there (`--mount=type=bind|secret,target=…`, BuildKit's
    /// `target`, `dst` or `destination`), or points apt at other source files
    /// (`-o Dir::Etc::SourceList=…`, `Dir::Etc::SourceParts`). A pin apt may find in such a
    /// source cannot be checked where no template declares it.
    ///
    /// - Returns: Each instruction's or command's position, in file order.
    func aptSourceEdits() -> [SourceLocation] {
        var found: [SourceLocation] = []
        for entry in entries {
            guard let copy = entry.instruction.asCopy, let destination = copy.destination,
                unquoted(destination.text).hasPrefix("/etc/apt/sources.list")
            else { continue }
            found.append(entry.instruction.location(of: destination))
        }
        let sourcesFolder = "/etc/apt/sources.list"
        for script in runScripts {
            let mountTargets = script.mounts.compactMap { $0["target"] ?? $0["dst"] ?? $0["destination"] }
            if mountTargets.contains(where: { $0.hasPrefix(sourcesFolder) || $0 == "/etc/apt" || $0 == "/etc/apt/" }) {
                found.append(script.run.location)
            }
            for command in script.commands {
                let pointsElsewhere = command.arguments.contains {
                    $0.text.lowercased().contains("dir::etc::sourcelist")
                        || $0.text.lowercased().contains("dir::etc::sourceparts")
                }
                if pointsElsewhere, let first = command.words.first { found.append(first.location) }
                let names = ["add-apt-repository", "apt-add-repository"]
                let touches =
                    command.program.map(names.contains) == true
                    || (command.arguments.map(\.text) + command.outputTargets).contains { $0.hasPrefix(sourcesFolder) }
                if touches, let first = command.words.first { found.append(first.location) }
            }
        }
        return found.sorted()
    }
}
